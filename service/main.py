"""Build the web app: the routers, the store, the guards, and one mapping of errors to statuses."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from engine import (
    BoardError,
    ColumnFullError,
    ColumnOutOfRangeError,
    EngineError,
    GameOverError,
    MoveSyntaxError,
    NotYourTurnError,
    PlayerNotActiveError,
    RulesError,
)

from .errors import HTTP_ERROR_CODES, ServiceError, error_response
from .guards import RequestLimits
from .limits import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    MAX_BODY_BYTES,
    MAX_CONNECTIONS,
    MAX_HEADER_BYTES,
)
from .routers import drop_token, winner
from .schemas import ERROR_SCHEMA, ErrorOut
from .storage import DEFAULT_DB, open_store
from .winner_pool import WinnerPool, shared_pool

__all__ = ["DEFAULT_DB", "ENGINE_ERRORS", "create_app"]

ENGINE_ERRORS: dict[type[EngineError], tuple[int, str]] = {
    NotYourTurnError: (409, "not_your_turn"),
    PlayerNotActiveError: (404, "player_not_active"),
    GameOverError: (400, "game_over"),
    ColumnFullError: (400, "column_full"),
    ColumnOutOfRangeError: (400, "column_out_of_range"),
    MoveSyntaxError: (400, "bad_move"),
    RulesError: (400, "bad_rules"),
    BoardError: (400, "invalid_board"),
}
"""Each engine error's HTTP status and error code; the closest base class decides."""


async def _engine_error(request: Request, error: Exception) -> JSONResponse:
    for cls in type(error).__mro__:
        if cls in ENGINE_ERRORS:
            status_code, code = ENGINE_ERRORS[cls]
            break
    else:
        status_code, code = 400, "engine_error"
    # A board refusal names its own rule.
    code = getattr(error, "code", code)
    return error_response(status_code, code, str(error))


async def _service_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    return error_response(error.status_code, error.code, str(error), dict(error.headers))


async def _malformed(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = "; ".join(
        f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}"
        for problem in error.errors()
    )
    return error_response(400, "malformed_request", problems or "malformed request")


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    headers = dict(error.headers or {})
    if error.status_code == 405:
        headers["Allow"] = ", ".join(_allowed_methods(request))
    code = HTTP_ERROR_CODES.get(error.status_code, f"http_{error.status_code}")
    return error_response(error.status_code, code, str(error.detail), headers)


async def _internal_error(request: Request, error: Exception) -> JSONResponse:
    # The traceback goes to the server's log, never to the client.
    return error_response(500, "internal_error", "the server failed; nothing is known to be lost")


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route accepts at this path (Starlette names only the first route's)."""
    path = request.url.path
    methods: set[str] = set()
    for pattern, accepted in request.app.state.route_methods:
        if pattern.match(path):
            methods |= accepted
    return sorted(methods)


def _route_methods(routes: list[Any]) -> list[tuple[re.Pattern[str], set[str]]]:
    """Each route's path pattern and methods (included routers hold theirs apart)."""
    return [
        (route.path_regex, set(route.methods))
        for route in routes
        if getattr(route, "path_regex", None) is not None and getattr(route, "methods", None)
    ]


_LIMITS_TEXT = (
    "Every error is JSON: {{\"error\": code, \"detail\": sentence}}. Limits of every "
    "request: a body of at most {body} bytes (413 request_too_large), sent within "
    "{body_timeout:g} s of the headers (408 request_timeout); request line and headers of "
    "at most {header} bytes (431 headers_too_large), sent within {header_timeout:g} s (else "
    "the connection is closed); at most {connections} connections and requests at once "
    "(503). Storage faults are 503 with a code of their own and Retry-After; nothing was "
    "stored."
)


def create_app(
    db: str | os.PathLike[str] = DEFAULT_DB,
    *,
    max_db_pages: int | None = None,
    read_only: bool = False,
    max_body_bytes: int = MAX_BODY_BYTES,
    body_timeout: float = BODY_TIMEOUT,
    winner_pool: WinnerPool | None = None,
) -> FastAPI:
    """The app, its games stored in ``db``: a ``postgresql://`` URL or an SQLite file.

    An SQLite file is created if missing; a PostgreSQL database must exist
    (the service creates or migrates its tables).
    ``max_db_pages`` caps an SQLite database's size in pages (4 KiB each);
    ``read_only`` serves the games and refuses every change (503);
    ``winner_pool`` runs the winner checks (the process's shared pool if None);
    the caller that made it closes it.

    Raises:
        StorageError: the database cannot be opened as the service's database.
    """
    store = open_store(db, max_db_pages=max_db_pages, read_only=read_only)
    pool = winner_pool or shared_pool()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="Connect Four service",
        summary="The drop-token game API and a winner check for board strings.",
        description=_LIMITS_TEXT.format(
            body=max_body_bytes, body_timeout=body_timeout, header_timeout=HEADER_TIMEOUT,
            header=MAX_HEADER_BYTES, connections=MAX_CONNECTIONS,
        ),
        version="1.1.0",
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.winner_pool = pool
    app.include_router(drop_token.router)
    app.include_router(winner.router)
    app.state.route_methods = _route_methods(
        [*app.router.routes, *drop_token.router.routes, *winner.router.routes]
    )
    app.add_exception_handler(EngineError, _engine_error)
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)
    app.add_middleware(RequestLimits, max_bytes=max_body_bytes, timeout=body_timeout)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _openapi_document(app, max_body_bytes, body_timeout)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


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
