"""A pool of browser pages reused across URLs: one page per slot, each slot in its own browser context.

Opening a tab is the largest cost of rendering (../shared/STACK-NOTES.md "Playwright timings": a new page per URL
2.7-3.2 pages/s, one reused page about 7.7 pages/s), so a page that rendered cleanly is parked in its slot (first
sent to ``about:blank`` if it was still busy, which stops the last document's timers and requests) and handed to
the next URL through scrapy-playwright's ``meta["playwright_page"]``. At most ``max_pages`` slots are leased at
once.

Each slot has its own context (scrapy-playwright creates contexts on demand, by name): Chromium opens the pages
of one context as tabs of one window, and only the window's front tab gets animation frames at full rate; the
others dropped to about one frame per second here (Chromium 156, new headless), which stalls
IntersectionObserver-driven lazy loading and infinite scroll. A context per slot gives every page its own
window. After ``context_pages`` renders a slot's context is closed and replaced (memory, cache and cookies do not
build up); a page that crashed, hung or errored is closed instead of parked, and its slot opens a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any


@dataclass
class Lease:
    context: str  # the scrapy-playwright context name to render in
    page: Any  # a parked page to reuse, or None: scrapy-playwright opens one in ``context``
    slot: int
    released: bool = False


@dataclass
class _Slot:
    index: int
    generation: int = 0
    uses: int = 0
    page: Any = None
    busy: bool = False


class PagePool:
    """Bounded, reusable browser pages, one context (hence one window) each."""

    def __init__(self, max_pages: int, context_pages: int, stats: Any) -> None:
        self.context_pages = max(1, context_pages)
        self.stats = stats
        self._slots = [_Slot(i) for i in range(max(1, max_pages))]
        self._free = asyncio.Semaphore(len(self._slots))

    def context_name(self, slot: _Slot) -> str:
        return f"winnow-render-{slot.index}-{slot.generation}"

    async def acquire(self) -> Lease:
        await self._free.acquire()
        free = [s for s in self._slots if not s.busy]
        # A slot with a parked page first: reusing a tab is what makes the pool pay off.
        slot = next((s for s in free if s.page is not None and not s.page.is_closed()), free[0])
        slot.busy = True
        if slot.page is not None and slot.page.is_closed():
            slot.page = None  # closed with a crashed browser
        return Lease(self.context_name(slot), slot.page, slot.index)

    async def release(self, lease: Lease, page: Any, reusable: bool, quiet: bool = False) -> None:
        """Return a leased slot: its page parked for reuse when ``reusable``, else closed.

        A page that settled (``quiet``: nothing in flight, no pending timer) is parked as it is, since the next
        navigation replaces its document anyway; any other is first sent to ``about:blank``. Blanking every page
        cost the browser process about 40 ms of CPU per page in bench/render_bench.py.
        """
        if lease.released:
            return
        lease.released = True
        slot = self._slots[lease.slot]
        try:
            slot.page = None
            slot.uses += 1
            alive = page is not None and not page.is_closed()
            if slot.uses >= self.context_pages:
                context = page.context if alive else None
                slot.generation, slot.uses = slot.generation + 1, 0
                if context is not None:
                    with contextlib.suppress(Exception):  # already gone with a crashed browser
                        await asyncio.wait_for(context.close(), timeout=10.0)
                    self.stats.inc_value("winnow/render/contexts_recycled")
                return
            if alive and reusable and (quiet or await _blank(page)):
                slot.page = page
            elif alive:
                await _close(page)
        finally:
            slot.busy = False
            self._free.release()


async def _blank(page: Any) -> bool:
    try:
        await asyncio.wait_for(page.goto("about:blank"), timeout=5.0)
        return True
    except Exception:  # a page that cannot even leave its document is not worth keeping
        return False


async def _close(page: Any) -> None:
    with contextlib.suppress(Exception):  # a crashed page or a dead browser: nothing left to close
        await asyncio.wait_for(page.close(), timeout=5.0)
