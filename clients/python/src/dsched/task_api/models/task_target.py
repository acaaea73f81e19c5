from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.task_target_method import TaskTargetMethod
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.task_target_headers import TaskTargetHeaders


T = TypeVar("T", bound="TaskTarget")


@_attrs_define
class TaskTarget:
    """absent on a workflow task, which carries `workflow` instead

    Attributes:
        url (str):
        method (TaskTargetMethod):  Default: TaskTargetMethod.POST.
        headers (TaskTargetHeaders):
        timeout_ms (int):  Default: 30000.
        body (Any | Unset):
    """

    url: str
    headers: TaskTargetHeaders
    method: TaskTargetMethod = TaskTargetMethod.POST
    timeout_ms: int = 30000
    body: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        method = self.method.value

        headers = self.headers.to_dict()

        timeout_ms = self.timeout_ms

        body = self.body

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "method": method,
                "headers": headers,
                "timeoutMs": timeout_ms,
            }
        )
        if body is not UNSET:
            field_dict["body"] = body

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.task_target_headers import TaskTargetHeaders  # noqa: PLC0415

        d = dict(src_dict)
        url = d.pop("url")

        method = TaskTargetMethod(d.pop("method"))

        headers = TaskTargetHeaders.from_dict(d.pop("headers"))

        timeout_ms = d.pop("timeoutMs")

        body = d.pop("body", UNSET)

        task_target = cls(
            url=url,
            method=method,
            headers=headers,
            timeout_ms=timeout_ms,
            body=body,
        )

        return task_target
