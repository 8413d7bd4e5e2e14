"""A test whose machine lacks what it needs: skipped on a developer's machine, failed on CI.

``.ci/run`` installs every program and extra the tests use, so on CI
(``CI=true``) a missing one is a broken run, never a skip; elsewhere the
test skips and says why (the README's promise).
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

__all__ = ["ON_CI", "unavailable"]

ON_CI = os.environ.get("CI") == "true"
"""Whether the tests run on CI, where nothing they need may be missing."""


def unavailable(skipped: str, on_ci: str | None = None) -> NoReturn:
    """Skip the test saying ``skipped``; on CI, fail it saying ``on_ci`` (``skipped`` if not given)."""
    if ON_CI:
        pytest.fail(skipped if on_ci is None else on_ci, pytrace=False)
    pytest.skip(skipped)
