from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.post_v1_operations_body_action import PostV1OperationsBodyAction
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.operation_filter import OperationFilter


T = TypeVar("T", bound="PostV1OperationsBody")


@_attrs_define
class PostV1OperationsBody:
    """
    Attributes:
        action (PostV1OperationsBodyAction): cancel: pending and running jobs; pause, resume: tasks; redrive: dead jobs
            (the DLQ); retry: pending jobs waiting out a retry backoff, made due now
        filter_ (OperationFilter): what the operation acts on; at least one of taskId, tag, from, to (never everything)
        dry_run (bool | Unset): count what it would touch; change nothing, store nothing
    """

    action: PostV1OperationsBodyAction
    filter_: OperationFilter
    dry_run: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        filter_ = self.filter_.to_dict()

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "filter": filter_,
            }
        )
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.operation_filter import OperationFilter  # noqa: PLC0415

        d = dict(src_dict)
        action = PostV1OperationsBodyAction(d.pop("action"))

        filter_ = OperationFilter.from_dict(d.pop("filter"))

        dry_run = d.pop("dryRun", UNSET)

        post_v1_operations_body = cls(
            action=action,
            filter_=filter_,
            dry_run=dry_run,
        )

        return post_v1_operations_body
