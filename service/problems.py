"""What is wrong with a malformed request, in sentences that say what was expected.

FastAPI's own words name its parser ("body.1: JSON decode error", "Input
should be a valid dictionary or object to extract fields from"). Here each
problem names its place as a client writes it (``players[0]``, the query
parameter ``limit``, the header ``Idempotency-Key``), and a body that is
not a JSON object (not JSON, another Content-Type, a list, nothing) is
answered with the shape the route expects, from its input model:
``the body must be a JSON object {"column": integer}``. A detail is
bounded: a few problems, each place cut short, however the body is made.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, get_type_hints

from pydantic import BaseModel

__all__ = [
    "MAX_PROBLEMS",
    "describe",
    "expected_body",
    "not_found",
    "not_allowed",
    "unreadable_body",
]

MAX_PROBLEMS = 5
"""Problems a detail names at most (then how many more there are)."""

_MAX_PLACE = 40
"""Characters of a key or a path a detail repeats at most."""

_WHOLE_BODY = frozenset({"model_attributes_type", "dict_type", "model_type", "missing"})
"""Pydantic's error types that, at the body itself, mean "not a JSON object"."""


def describe(
    problems: Sequence[Mapping[str, Any]], endpoint: Callable[..., Any] | None, content_type: str
) -> str:
    """One sentence for a request FastAPI refused: its ``problems``, and the body expected.

    ``endpoint`` is the route's function (its body model gives the shape);
    ``content_type`` the request's header.
    """
    sentences: list[str] = []
    body_wrong = False
    for problem in problems:
        location = tuple(problem.get("loc", ()))
        kind = problem.get("type", "")
        if location[:1] == ("body",):
            if kind == "json_invalid":
                reason = problem.get("ctx", {}).get("error", "")
                at = location[1] if len(location) > 1 else None
                where = f"{reason} at character {at}" if isinstance(at, int) else reason
                sentences.append(f"the body is not valid JSON ({_cut(str(where), 80)})")
                body_wrong = True
                continue
            if len(location) == 1 and kind in _WHOLE_BODY:
                if "json" not in content_type.lower():
                    sent = f"as {_cut(content_type)}" if content_type else "without a Content-Type"
                    sentences.append(
                        f"the body was sent {sent}, not as JSON ('Content-Type: application/json')"
                    )
                elif kind == "missing":
                    sentences.append("the body is empty")
                else:
                    sentences.append("the body is JSON but not an object")
                body_wrong = True
                continue
        sentences.append(f"{_place(location)}: {_what(problem)}")
    shown = sentences[:MAX_PROBLEMS]
    if len(sentences) > MAX_PROBLEMS:
        shown.append(f"and {len(sentences) - MAX_PROBLEMS} more problems")
    text = "; ".join(shown) or "malformed request"
    shape = expected_body(endpoint)
    if shape is not None and (
        body_wrong or any(p.get("loc", ())[:1] == ("body",) for p in problems)
    ):
        text += f"; the body must be a JSON object {shape}"
    return text


def expected_body(endpoint: Callable[..., Any] | None) -> str | None:
    """The JSON object ``endpoint`` takes as its body, written out (None: it takes none).

    >>> from pydantic import BaseModel
    >>> class MoveIn(BaseModel):
    ...     column: int
    ...     note: str = ""
    >>> def create_move(body: MoveIn) -> None: ...
    >>> expected_body(create_move)
    '{"column": integer, "note": string (optional)}'
    """
    if endpoint is None:
        return None
    try:
        hints = get_type_hints(endpoint)
    except Exception:  # An endpoint whose hints cannot be resolved takes no model we know.
        return None
    for name in inspect.signature(endpoint).parameters:
        model = hints.get(name)
        if isinstance(model, type) and issubclass(model, BaseModel):
            return _shape(model)
    return None


def not_found(method: str, path: str) -> str:
    """The detail of a 404 for a path no route takes.

    >>> not_found("GET", "/drop_tokens")
    'no such path: GET /drop_tokens (the API is under /drop_token, /winner, /analysis and /computer_move; its description at /docs)'
    """
    return (
        f"no such path: {method} {_cut(path, 200)} (the API is under /drop_token, /winner, "
        "/analysis and /computer_move; its description at /docs)"
    )


def not_allowed(method: str, allowed: Sequence[str]) -> str:
    """The detail of a 405: the method sent, and those the path takes.

    >>> not_allowed("GET", ["POST"])
    'method GET is not allowed here; use POST'
    """
    return f"method {_cut(method, 20)} is not allowed here; use {' or '.join(allowed) or 'none'}"


def unreadable_body(endpoint: Callable[..., Any] | None) -> str:
    """The detail of a body that could not be read at all (FastAPI's "error parsing the body")."""
    shape = expected_body(endpoint)
    expected = f"a JSON object {shape}" if shape is not None else "JSON"
    return (
        "the body could not be read: it must be JSON, sent with "
        f"'Content-Type: application/json', {expected}"
    )


def _shape(model: type[BaseModel]) -> str:
    """``{"key": type, ...}`` of a model's JSON schema, optional keys marked."""
    schema = model.model_json_schema()
    required = set(schema.get("required", ()))
    parts = [
        f'"{name}": {_type(field)}' + ("" if name in required else " (optional)")
        for name, field in schema.get("properties", {}).items()
    ]
    return "{" + ", ".join(parts) + "}"


def _type(field: Mapping[str, Any]) -> str:
    """A JSON schema's type in a word: ``integer``, ``[string, ...]``..."""
    kind = field.get("type")
    if kind == "array":
        return f"[{_type(field.get('items', {}))}, ...]"
    if isinstance(kind, str):
        return kind
    if "$ref" in field:
        return "object"
    # An optional object (a game's clock): the type it is when not null.
    kinds = [_type(option) for option in field.get("anyOf", ()) if option.get("type") != "null"]
    return kinds[0] if len(kinds) == 1 else "value"


def _place(location: tuple[Any, ...]) -> str:
    """Where a problem is, as a client writes it: ``players[0]``, ``query parameter limit``."""
    source, rest = (location[0], location[1:]) if location else ("", ())
    path = ""
    for part in rest:
        path += (
            f"[{part}]"
            if isinstance(part, int)
            else (f".{_cut(str(part))}" if path else _cut(str(part)))
        )
    if source == "query":
        return f"query parameter {path}"
    if source == "header":
        return f"header {path}"
    if source == "path":
        return f"{path} in the path"
    return path or "the body"


_EXPECTED = {
    "missing": "missing",
    "extra_forbidden": "not a key this request takes",
    "int_type": "must be an integer",
    "int_parsing": "must be an integer",
    "int_from_float": "must be an integer",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be a string",
    "list_type": "must be a list",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "finite_number": "must be a number",
}
"""What was expected, by pydantic's kind of problem, where the problem's context adds nothing."""

_BOUNDS = {
    "greater_than_equal": ("must be at least", "ge", None),
    "greater_than": ("must be more than", "gt", None),
    "less_than_equal": ("must be at most", "le", None),
    "string_too_short": ("must have at least", "min_length", "character"),
    "string_too_long": ("must have at most", "max_length", "character"),
    "too_short": ("must have at least", "min_length", "item"),
    "too_long": ("must have at most", "max_length", "item"),
}
"""The bounds a value missed, by pydantic's kind of problem: the words, the context's key
that holds the bound, and what it counts (None: the bound is a number)."""


def _what(problem: Mapping[str, Any]) -> str:
    """What was expected at a problem's place."""
    kind = problem.get("type", "")
    context = problem.get("ctx", {})
    if kind == "value_error" and "error" in context:
        return _cut(str(context["error"]), 200)
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind in _BOUNDS:
        words, key, noun = _BOUNDS[kind]
        bound = context.get(key)
        return f"{words} {_number(bound) if noun is None else _count(bound, noun)}"
    return str(problem.get("msg", "invalid"))


def _cut(text: str, length: int = _MAX_PLACE) -> str:
    """``text``, cut to ``length`` characters (a key or path a client made may be huge)."""
    return text if len(text) <= length else text[: length - 1] + "…"


def _count(number: object, noun: str) -> str:
    """``1 item``, ``2 items``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _number(value: object) -> object:
    """A limit as a person writes it: ``300``, not ``300.0``."""
    return int(value) if isinstance(value, float) and value.is_integer() else value
