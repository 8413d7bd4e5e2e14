"""The page's type declarations against what the service makes (tsconfig.json, types/).

``limits.js`` is made by service/routers/page.py from ``PAGE_LIMITS``; TypeScript's
check of the page reads its names and types from types/static/limits.d.ts instead.
The two must name the same limits, each a number, or the check would pass on a
page that imports a limit the service no longer makes.
"""

from __future__ import annotations

import re
from pathlib import Path

from connect_four.service.routers.page import PAGE_LIMITS, STATIC_FILES

DECLARATIONS = Path(__file__).resolve().parents[1] / "types" / "static" / "limits.d.ts"


def test_the_declared_limits_are_the_ones_the_service_makes() -> None:
    declared = dict(re.findall(r"^export const (\w+): (\w+);$", DECLARATIONS.read_text(), re.M))
    assert declared == dict.fromkeys(PAGE_LIMITS, "number")
    assert all(isinstance(value, int) for value in PAGE_LIMITS.values())
    made = STATIC_FILES["limits.js"][0].decode()
    assert set(re.findall(r"^export const (\w+) = ", made, re.M)) == set(declared)
