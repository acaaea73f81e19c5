from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.operation_filter_state import OperationFilterState
from ..types import UNSET, Unset

T = TypeVar("T", bound="OperationFilter")


@_attrs_define
class OperationFilter:
    """what the operation acts on; at least one of taskId, tag, from, to (never everything)

    Attributes:
        task_id (str | Unset): one task: its jobs, or the task itself (pause, resume)
        tag (list[str] | str | Unset): key:value, or a list of them (all must match, at most 5)
        state (OperationFilterState | Unset): narrows a job action: cancel pending or running, redrive dead, retry
            pending
        from_ (datetime.datetime | Unset): jobs scheduled at or after this time
        to (datetime.datetime | Unset): jobs scheduled before this time
        error_contains (str | Unset): a job action: only jobs whose last error contains this text (ignoring case); it
            narrows the other fields, it is not a filter alone
    """

    task_id: str | Unset = UNSET
    tag: list[str] | str | Unset = UNSET
    state: OperationFilterState | Unset = UNSET
    from_: datetime.datetime | Unset = UNSET
    to: datetime.datetime | Unset = UNSET
    error_contains: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        task_id = self.task_id

        tag: list[str] | str | Unset
        if isinstance(self.tag, Unset):
            tag = UNSET
        elif isinstance(self.tag, list):
            tag = self.tag

        else:
            tag = self.tag

        state: str | Unset = UNSET
        if not isinstance(self.state, Unset):
            state = self.state.value

        from_: str | Unset = UNSET
        if not isinstance(self.from_, Unset):
            from_ = self.from_.isoformat()

        to: str | Unset = UNSET
        if not isinstance(self.to, Unset):
            to = self.to.isoformat()

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

        def _parse_tag(data: object) -> list[str] | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tag_type_1 = cast(list[str], data)

                return tag_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str | Unset, data)

        tag = _parse_tag(d.pop("tag", UNSET))

        _state = d.pop("state", UNSET)
        state: OperationFilterState | Unset
        if isinstance(_state, Unset):
            state = UNSET
        else:
            state = OperationFilterState(_state)

        _from_ = d.pop("from", UNSET)
        from_: datetime.datetime | Unset
        if isinstance(_from_, Unset):
            from_ = UNSET
        else:
            from_ = datetime.datetime.fromisoformat(_from_)

        _to = d.pop("to", UNSET)
        to: datetime.datetime | Unset
        if isinstance(_to, Unset):
            to = UNSET
        else:
            to = datetime.datetime.fromisoformat(_to)

        error_contains = d.pop("errorContains", UNSET)

        operation_filter = cls(
            task_id=task_id,
            tag=tag,
            state=state,
            from_=from_,
            to=to,
            error_contains=error_contains,
        )

        return operation_filter
