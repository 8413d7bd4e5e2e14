"""The server process's garbage collector: start-up objects frozen, young ones collected less often."""

from __future__ import annotations

import gc

from connect_four.service.push_server import YOUNG_COLLECTION, settle_memory


def test_settle_memory_freezes_what_exists_and_raises_only_the_young_threshold() -> None:
    before, frozen_before = gc.get_threshold(), gc.get_freeze_count()
    gc.unfreeze()  # the suite's own freeze (conftest.py) must not answer for settle_memory
    try:
        settle_memory()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_COLLECTION, before[1], before[2])
        assert YOUNG_COLLECTION > before[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
        if frozen_before:
            gc.freeze()
