"""The suite's own set-up (conftest.py): what it promises every test process."""

from __future__ import annotations

import gc


def test_what_collection_made_is_frozen_before_the_first_test() -> None:
    assert gc.get_freeze_count() > 0
