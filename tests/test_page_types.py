"""The page's type declarations against what the service makes (tsconfig.json, types/).

``limits.js`` is made by service/routers/page.py from ``PAGE_LIMITS``; TypeScript's
check of the page reads its names and types from types/static/limits.d.ts instead.
The two must name the same values, each with its type, or the check would pass on a
page that imports a value the service no longer makes.
"""

from __future__ import annotations

import re
from pathlib import Path

from connect_four.service.routers.page import PAGE_LIMITS, STATIC_FILES

DECLARATIONS = Path(__file__).resolve().parents[1] / "types" / "static" / "limits.d.ts"


def _script_type(value: object) -> str:
    """The TypeScript type of ``value`` as limits.js writes it (JSON)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "string[]"
    if isinstance(value, dict) and all(isinstance(item, str) for item in value.values()):
        return "Record<string, string>"
    raise TypeError(f"limits.js has no type for {value!r}")


def test_the_declared_limits_are_the_ones_the_service_makes() -> None:
    declared = dict(re.findall(r"^export const (\w+): (.+);$", DECLARATIONS.read_text(), re.M))
    assert declared == {name: _script_type(value) for name, value in PAGE_LIMITS.items()}
    made = STATIC_FILES["limits.js"][0].decode()
    assert set(re.findall(r"^export const (\w+) = ", made, re.M)) == set(declared)
