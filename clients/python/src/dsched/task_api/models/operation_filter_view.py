from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.operation_filter_view_state import OperationFilterViewState
from ..types import UNSET, Unset

T = TypeVar("T", bound="OperationFilterView")


@_attrs_define
class OperationFilterView:
    """the filter as stored: tags as a list, times normalised

    Attributes:
        task_id (str | Unset):
        tag (list[str] | Unset):
        state (OperationFilterViewState | Unset):
        from_ (str | Unset):
        to (str | Unset):
        error_contains (str | Unset):
    """

    task_id: str | Unset = UNSET
    tag: list[str] | Unset = UNSET
    state: OperationFilterViewState | Unset = UNSET
    from_: str | Unset = UNSET
    to: str | Unset = UNSET
    error_contains: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        task_id = self.task_id

        tag: list[str] | Unset = UNSET
        if not isinstance(self.tag, Unset):
            tag = self.tag

        state: str | Unset = UNSET
        if not isinstance(self.state, Unset):
            state = self.state.value

        from_ = self.from_

        to = self.to

        error_contains = self.error_contains

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if task_id is not UNSET:
            field_dict["taskId"] = task_id
        if tag is not UNSET:
            field_dict["tag"] = tag
        if state is not UNSET:
            field_dict["state"] = state
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to
        if error_contains is not UNSET:
            field_dict["errorContains"] = error_contains

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        task_id = d.pop("taskId", UNSET)

        tag = cast(list[str], d.pop("tag", UNSET))

        _state = d.pop("state", UNSET)
        state: OperationFilterViewState | Unset
        if isinstance(_state, Unset):
            state = UNSET
        else:
            state = OperationFilterViewState(_state)

        from_ = d.pop("from", UNSET)

        to = d.pop("to", UNSET)

        error_contains = d.pop("errorContains", UNSET)

        operation_filter_view = cls(
            task_id=task_id,
            tag=tag,
            state=state,
            from_=from_,
            to=to,
            error_contains=error_contains,
        )

        return operation_filter_view
