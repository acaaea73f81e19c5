from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.occurrence import Occurrence


T = TypeVar("T", bound="OccurrencePreview")


@_attrs_define
class OccurrencePreview:
    """
    Attributes:
        timezone (str):
        description (str): the schedule in one sentence
        from_ (str): the instant the preview started from
        occurrences (list[Occurrence]):
    """

    timezone: str
    description: str
    from_: str
    occurrences: list[Occurrence]

    def to_dict(self) -> dict[str, Any]:
        timezone = self.timezone

        description = self.description

        from_ = self.from_

        occurrences = []
        for occurrences_item_data in self.occurrences:
            occurrences_item = occurrences_item_data.to_dict()
            occurrences.append(occurrences_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "timezone": timezone,
                "description": description,
                "from": from_,
                "occurrences": occurrences,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.occurrence import Occurrence  # noqa: PLC0415

        d = dict(src_dict)
        timezone = d.pop("timezone")

        description = d.pop("description")

        from_ = d.pop("from")

        occurrences = []
        _occurrences = d.pop("occurrences")
        for occurrences_item_data in _occurrences:
            occurrences_item = Occurrence.from_dict(occurrences_item_data)

            occurrences.append(occurrences_item)

        occurrence_preview = cls(
            timezone=timezone,
            description=description,
            from_=from_,
            occurrences=occurrences,
        )

        return occurrence_preview
