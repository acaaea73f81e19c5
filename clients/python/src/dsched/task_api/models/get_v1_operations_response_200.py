from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.operation import Operation


T = TypeVar("T", bound="GetV1OperationsResponse200")


@_attrs_define
class GetV1OperationsResponse200:
    """
    Attributes:
        operations (list[Operation]):
        next_page_token (str | Unset):
    """

    operations: list[Operation]
    next_page_token: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        operations = []
        for operations_item_data in self.operations:
            operations_item = operations_item_data.to_dict()
            operations.append(operations_item)

        next_page_token = self.next_page_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "operations": operations,
            }
        )
        if next_page_token is not UNSET:
            field_dict["nextPageToken"] = next_page_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.operation import Operation  # noqa: PLC0415

        d = dict(src_dict)
        operations = []
        _operations = d.pop("operations")
        for operations_item_data in _operations:
            operations_item = Operation.from_dict(operations_item_data)

            operations.append(operations_item)

        next_page_token = d.pop("nextPageToken", UNSET)

        get_v1_operations_response_200 = cls(
            operations=operations,
            next_page_token=next_page_token,
        )

        return get_v1_operations_response_200
