"""The page takes its limits and defaults from the service (issue 34): never a copy.

``limits.js`` is made by service/routers/page.py from each value's one Python home;
the page's own files (service/static) import the values from it and write none of
them again, so a limit changed in Python changes the page with it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from connect_four.engine import Rules
from connect_four.engine.notation import DIGIT_COLUMNS
from connect_four.engine.solver import LEVELS
from connect_four.service import limits
from connect_four.service.names import DOT_NAMES, NAME_PATTERN
from connect_four.service.records import CONNECT
from connect_four.service.routers.page import PAGE_LIMITS, STATIC_FILES

STATIC = Path(__file__).resolve().parents[1] / "service" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))


def _made() -> dict[str, object]:
    """The values limits.js exports, read back from its JSON."""
    text = STATIC_FILES["limits.js"][0].decode()
    return {
        name: json.loads(value)
        for name, value in re.findall(r"^export const (\w+) = (.+);$", text, re.M)
    }


def _code(path: Path) -> str:
    """A script without its comments (``/* ... */``, and ``//`` to the end of a line)."""
    return re.sub(
        r"/\*.*?\*/|^\s*//[^\n]*|\s//\s[^\n]*",
        "",
        path.read_text(encoding="utf-8"),
        flags=re.S | re.M,
    )


def test_limits_js_holds_the_values_of_their_python_homes() -> None:
    assert _made() == {
        "CONNECT": CONNECT,
        "LEVELS": {str(level): text for level, text in LEVELS.items()},
        "MAX_SIZE": limits.MAX_SIZE,
        "MAX_NAME_LENGTH": limits.MAX_NAME_LENGTH,
        "NAME_PATTERN": NAME_PATTERN,
        "DOT_NAMES": list(DOT_NAMES),
        "MIN_COMPUTER_SIZE": limits.MIN_COMPUTER_SIZE,
        "MAX_COMPUTER_SIZE": limits.MAX_COMPUTER_SIZE,
        "MAX_ANALYSIS_SIZE": limits.MAX_ANALYSIS_SIZE,
        "TERMINAL_ROWS": Rules().rows,
        "TERMINAL_COLUMNS": Rules().columns,
        "DIGIT_COLUMNS": DIGIT_COLUMNS,
        "MAX_CLOCK_MINUTES": limits.MAX_CLOCK_MINUTES,
        "MAX_INCREMENT": limits.MAX_INCREMENT,
        "MAX_CLOCK_DAYS": limits.MAX_CLOCK_DAYS,
    }


def test_no_page_script_defines_a_value_limits_js_makes() -> None:
    defined = {
        (path.name, name)
        for path in SCRIPTS
        for name in re.findall(r"\b(?:const|let|var|function|class)\s+(\w+)", _code(path))
        if name in PAGE_LIMITS
    }
    assert not defined, "import these from ./limits.js instead"


def test_no_page_constant_is_a_number_limits_js_makes() -> None:
    numbers = {value for value in PAGE_LIMITS.values() if isinstance(value, int)}
    copies = {
        (path.name, name, int(value))
        for path in SCRIPTS
        for name, value in re.findall(r"\bconst\s+(\w+)\s*=\s*(\d+)\s*;", _code(path))
        if int(value) in numbers
    }
    assert not copies, "a number limits.js makes, written again: import it from ./limits.js"


def test_no_page_script_writes_out_a_range_of_the_service() -> None:
    ranges = {
        f"{min(LEVELS)} to {max(LEVELS)}",
        f"{limits.MIN_COMPUTER_SIZE} to {limits.MAX_COMPUTER_SIZE}",
        f"1 to {limits.MAX_ANALYSIS_SIZE}",
    }
    written = {(path.name, text) for path in SCRIPTS for text in ranges if text in _code(path)}
    assert not written


def test_the_page_html_states_no_limit_of_its_own() -> None:
    # maxlength, pattern and the like are set from limits.js when the page starts.
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert not re.findall(r"\s(maxlength|minlength|pattern|min|max)=", html)
