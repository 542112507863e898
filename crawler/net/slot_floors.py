"""Crawl-delay as a floor on Scrapy download slots (robots.txt ``Crawl-delay``, crawler/policy/robots_middleware.py).

The floor is set on the live slot and in the downloader's per-slot settings (``DOWNLOAD_SLOTS`` entries are read
when a slot is created, also after the downloader's idle-slot clean-up), with the slot's jitter removed (jitter
would go below it). One slot (keyed by host name) may serve several origins: its floor is their largest delay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy.core.downloader import Downloader, Slot


def raise_to_floor(slot: Slot, floor: float) -> None:
    """Make ``slot`` wait at least ``floor`` seconds between requests, whatever its jitter."""
    if floor <= 0:
        return
    if slot.delay < floor:
        slot.delay = floor
    if slot.jitter and slot.delay * (1 - slot.jitter) < floor:
        slot.jitter = 0.0


class SlotFloors:
    """Crawl-delay floors per download slot; a slot (keyed by host name) may serve several origins."""

    def __init__(self) -> None:
        self._by_slot: dict[str, dict[str, float]] = {}
        self._original_settings: dict[str, dict[str, Any] | None] = {}

    def floor(self, slot_key: str | None) -> float:
        return max(self._by_slot.get(slot_key or "", {}).values(), default=0.0)

    def update(self, downloader: Downloader, slot_key: str, origin: str, delay: float | None) -> None:
        floors = self._by_slot.setdefault(slot_key, {})
        if floors.get(origin) == delay:
            return
        if delay:
            floors[origin] = delay
        else:
            floors.pop(origin, None)
        floor = self.floor(slot_key)
        self._configure_new_slots(downloader, slot_key, floor)
        slot = downloader.slots.get(slot_key)
        if slot is not None:
            raise_to_floor(slot, floor)

    def _configure_new_slots(self, downloader: Downloader, slot_key: str, floor: float) -> None:
        # DOWNLOAD_SLOTS entries are read when a slot is created, also after the downloader's idle-slot clean-up.
        per_slot = downloader.per_slot_settings
        if slot_key not in self._original_settings:
            original = per_slot.get(slot_key)
            self._original_settings[slot_key] = dict(original) if original is not None else None
        original = self._original_settings[slot_key]
        if floor <= 0:
            if original is None:
                per_slot.pop(slot_key, None)
            else:
                per_slot[slot_key] = dict(original)
            return
        base = dict(original or {})
        default_delay = float(getattr(downloader, "_delay", 0.0) or 0.0)
        base["delay"] = max(float(base.get("delay", default_delay)), floor)
        base["jitter"] = 0.0
        per_slot[slot_key] = base
