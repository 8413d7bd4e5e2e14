"""The app's OpenAPI document, saying what the service really answers and what it refuses."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from .limits import (
    HEADER_TIMEOUT,
    MAX_CLIENT_CONNECTIONS,
    MAX_CLIENT_WAITS,
    MAX_CONNECTIONS,
    MAX_HEADER_BYTES,
)
from .schemas import ERROR_SCHEMA, ErrorOut

__all__ = ["describe_limits", "install_openapi"]

_LIMITS_TEXT = (
    'Every error is JSON: {{"error": code, "detail": sentence}}. Limits of every '
    "request: a body of at most {body} bytes (413 request_too_large), sent within "
    "{body_timeout:g} s of the headers (408 request_timeout); request line and headers of "
    "at most {header} bytes (431 headers_too_large), sent within {header_timeout:g} s (else "
    "the connection is closed); at most {connections} connections and requests at once "
    "(503 server_busy), {client_connections} connections of one client address (429 "
    "too_many_connections) and {client_waits} waiting long polls of one client address (429 "
    "too_many_waits), each refusal with Retry-After. Storage faults are 503 with a code of "
    "their own and Retry-After; nothing was stored. Each client address has a rate of games "
    "created, moves and quits posted, analyses and computer moves asked, and stored moves "
    "replayed for it: beyond, 429 rate_limited with Retry-After. Lists come in pages (1,000 "
    "games, 500 moves; next starts the next page)."
)


def describe_limits(max_body_bytes: int, body_timeout: float) -> str:
    """The document's description: the error shape and every limit of a request."""
    return _LIMITS_TEXT.format(
        body=max_body_bytes,
        body_timeout=body_timeout,
        header_timeout=HEADER_TIMEOUT,
        header=MAX_HEADER_BYTES,
        connections=MAX_CONNECTIONS,
        client_connections=MAX_CLIENT_CONNECTIONS,
        client_waits=MAX_CLIENT_WAITS,
    )


def install_openapi(app: FastAPI, max_body_bytes: int, body_timeout: float) -> None:
    """Make ``app`` serve :func:`_openapi_document` (built on first request, then kept)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _openapi_document(app, max_body_bytes, body_timeout)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _openapi_document(app: FastAPI, max_body_bytes: int, body_timeout: float) -> dict[str, Any]:
    """FastAPI's document, saying what this app really answers.

    Malformed requests answer 400 here, never FastAPI's default 422 (a 422
    left in the document is the Idempotency-Key's own); every operation
    with a body also states its size and time limits (413, 408).
    """
    schema = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    components["ErrorOut"] = ErrorOut.model_json_schema()
    as_json = {"application/json": {"schema": ERROR_SCHEMA}}
    for path in schema["paths"].values():
        for operation in path.values():
            responses = operation.setdefault("responses", {})
            validation = responses.get("422", {}).get("content", {}).get("application/json", {})
            if "HTTPValidationError" in str(validation.get("schema", {})):
                del responses["422"]
            if "requestBody" in operation:
                responses["413"] = {
                    "description": f"The body is larger than {max_body_bytes} bytes "
                    "(request_too_large).",
                    "content": as_json,
                }
                responses["408"] = {
                    "description": f"The body was not received within {body_timeout:g} "
                    "seconds (request_timeout).",
                    "content": as_json,
                }
    return schema
