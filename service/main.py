"""Build the web app: the routers, the store, and one mapping of errors to statuses."""

from __future__ import annotations

import os
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

from .errors import ServiceError
from .routers import drop_token, winner
from .store import GameStore

__all__ = ["DEFAULT_DB", "ENGINE_ERRORS", "create_app"]

DEFAULT_DB = "drop_token.db"
"""The database file when none is named, in the working directory."""

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


def _error(status_code: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail}, status_code=status_code)


async def _engine_error(request: Request, error: Exception) -> JSONResponse:
    for cls in type(error).__mro__:
        if cls in ENGINE_ERRORS:
            status_code, code = ENGINE_ERRORS[cls]
            break
    else:
        status_code, code = 400, "engine_error"
    # A board refusal names its own rule.
    code = getattr(error, "code", code)
    return _error(status_code, code, str(error))


async def _service_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServiceError)
    return _error(error.status_code, error.code, str(error))


async def _malformed(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = "; ".join(
        f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}"
        for problem in error.errors()
    )
    return _error(400, "malformed_request", problems or "malformed request")


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    code = str(error.detail).lower().replace(" ", "_")
    return _error(error.status_code, code, str(error.detail))


def create_app(db_path: str | os.PathLike[str] = DEFAULT_DB) -> FastAPI:
    """The app, its games stored in the SQLite file ``db_path`` (created if missing)."""
    store = GameStore(db_path)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="Connect Four service",
        summary="The drop-token game API and a winner check for board strings.",
        version="1.0.0",
        lifespan=lifespan,
    )
    app.state.store = store
    app.include_router(drop_token.router)
    app.include_router(winner.router)
    app.add_exception_handler(EngineError, _engine_error)
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(HTTPException, _http_error)

    def openapi() -> dict[str, Any]:
        # Malformed requests answer 400 here, never FastAPI's default 422.
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                routes=app.routes,
            )
            for path in schema["paths"].values():
                for operation in path.values():
                    operation.get("responses", {}).pop("422", None)
            for name in ("HTTPValidationError", "ValidationError"):
                schema.get("components", {}).get("schemas", {}).pop(name, None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
