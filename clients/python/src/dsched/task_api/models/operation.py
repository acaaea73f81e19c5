from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.operation_action import OperationAction
from ..models.operation_state import OperationState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.operation_filter_view import OperationFilterView


T = TypeVar("T", bound="Operation")


@_attrs_define
class Operation:
    """
    Attributes:
        id (str):
        action (OperationAction):
        filter_ (OperationFilterView): the filter as stored: tags as a list, times normalised
        state (OperationState):
        matched (int): what the filter matched when the operation started (counted up to a cap)
        done (int): what it changed so far
        failed (int): what matched but could not be changed
        cancel_requested (bool): a cancel was asked for: it stops before its next batch
        created_at (str):
        updated_at (str):
        error (str | Unset):
        finished_at (str | Unset):
    """

    id: str
    action: OperationAction
    filter_: OperationFilterView
    state: OperationState
    matched: int
    done: int
    failed: int
    cancel_requested: bool
    created_at: str
    updated_at: str
    error: str | Unset = UNSET
    finished_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        action = self.action.value

        filter_ = self.filter_.to_dict()

        state = self.state.value

        matched = self.matched

        done = self.done

        failed = self.failed

        cancel_requested = self.cancel_requested

        created_at = self.created_at

        updated_at = self.updated_at

        error = self.error

        finished_at = self.finished_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "action": action,
                "filter": filter_,
                "state": state,
                "matched": matched,
                "done": done,
                "failed": failed,
                "cancelRequested": cancel_requested,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.operation_filter_view import OperationFilterView  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        action = OperationAction(d.pop("action"))

        filter_ = OperationFilterView.from_dict(d.pop("filter"))

        state = OperationState(d.pop("state"))

        matched = d.pop("matched")

        done = d.pop("done")

        failed = d.pop("failed")

        cancel_requested = d.pop("cancelRequested")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        error = d.pop("error", UNSET)

        finished_at = d.pop("finishedAt", UNSET)

        operation = cls(
            id=id,
            action=action,
            filter_=filter_,
            state=state,
            matched=matched,
            done=done,
            failed=failed,
            cancel_requested=cancel_requested,
            created_at=created_at,
            updated_at=updated_at,
            error=error,
            finished_at=finished_at,
        )

        return operation
