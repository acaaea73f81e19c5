from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.error_error_code import ErrorErrorCode

if TYPE_CHECKING:
    from ..models.error_error_details_item import ErrorErrorDetailsItem


T = TypeVar("T", bound="ErrorError")


@_attrs_define
class ErrorError:
    """
    Attributes:
        code (ErrorErrorCode):
        message (str):
        details (list[ErrorErrorDetailsItem]):
    """

    code: ErrorErrorCode
    message: str
    details: list[ErrorErrorDetailsItem]

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        message = self.message

        details = []
        for details_item_data in self.details:
            details_item = details_item_data.to_dict()
            details.append(details_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "details": details,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_error_details_item import ErrorErrorDetailsItem  # noqa: PLC0415

        d = dict(src_dict)
        code = ErrorErrorCode(d.pop("code"))

        message = d.pop("message")

        details = []
        _details = d.pop("details")
        for details_item_data in _details:
            details_item = ErrorErrorDetailsItem.from_dict(details_item_data)

            details.append(details_item)

        error_error = cls(
            code=code,
            message=message,
            details=details,
        )

        return error_error
