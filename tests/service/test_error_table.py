"""The service's layers: storage that knows nothing of HTTP, one table of error answers,
routes that reach the store and the workers only through dependencies."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_client import AppClient

import connect_four.service.errors  # noqa: F401 (loads connect_four.service.errors)
from connect_four import service
from connect_four.engine import board_check
from connect_four.engine.board_check import BoardVerdict
from connect_four.service.dependencies import get_store, get_winner_pool
from connect_four.service.error_table import ERRORS, answer_for
from connect_four.service.errors import (
    GameNotFoundError,
    ServiceError,
    StorageError,
    StorageFullError,
)
from connect_four.service.main import create_app
from connect_four.service.storage import open_store
from server_support import REPOSITORY

SERVICE = REPOSITORY / "service"

STORAGE_MODULES = [
    "errors.py",
    "records.py",
    "database.py",
    "cache.py",
    "repository.py",
    "lobby_rules.py",
    "lobby_store.py",
    "lobby_views.py",
    "sqlite_store.py",
    "postgres_store.py",
    "storage.py",
]
"""The modules below the web layer: they must not import it."""


def _imported_modules(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports (relative imports left out)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("module", STORAGE_MODULES)
def test_storage_modules_know_nothing_of_http(module: str) -> None:
    web = {"fastapi", "starlette", "uvicorn", "h11", "httpx"}
    assert not _imported_modules(SERVICE / module) & web


def test_service_errors_carry_no_status_or_code() -> None:
    for name in service.errors.__all__:
        cls = getattr(service.errors, name)
        for attribute in ("status_code", "code", "headers"):
            assert not hasattr(cls, attribute), f"{name}.{attribute}"


def _classes(module: object, base: type) -> Iterator[type]:
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if issubclass(cls, base):
            yield cls


@pytest.mark.parametrize(
    "cls",
    [*_classes(service.errors, ServiceError), *_classes(board_check, board_check.BoardError)],
    ids=lambda cls: cls.__name__,
)
def test_every_service_and_board_error_has_its_own_row(cls: type[Exception]) -> None:
    """A new error class must say how it is answered, not inherit its parent's code silently."""
    assert cls in ERRORS


def test_the_closest_class_in_the_table_decides() -> None:
    class VanishedGameError(GameNotFoundError):
        pass

    assert answer_for(VanishedGameError("gone")).code == "game_not_found"
    assert (answer_for(StorageFullError("x")).status, answer_for(StorageFullError("x")).code) == (
        503,
        "storage_full",
    )
    assert dict(answer_for(StorageError("x")).headers) == {"Retry-After": "5"}
    assert (answer_for(KeyError("x")).status, answer_for(KeyError("x")).code) == (
        500,
        "internal_error",
    )


def test_error_codes_are_unique_per_status() -> None:
    """Two rows never answer the same code with different statuses."""
    statuses: dict[str, int] = {}
    for answer in ERRORS.values():
        assert statuses.setdefault(answer.code, answer.status) == answer.status, answer.code


@pytest.mark.parametrize("router", sorted((SERVICE / "routers").glob("*.py")), ids=str)
def test_routers_never_reach_into_the_app(router: Path) -> None:
    """Routes get the store and the workers as dependencies (service/dependencies.py)."""
    source = router.read_text()
    assert "app.state" not in source
    assert "Request" not in _imported_names(router)


def _imported_names(path: Path) -> set[str]:
    return {
        alias.asname or alias.name
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


class _FixedPool:
    """A winner pool that answers B for every board, without a worker process."""

    async def check(
        self, board: str, rows: int, columns: int, connect: int, first: str
    ) -> BoardVerdict:
        return BoardVerdict("B", False)


def test_the_store_and_the_pool_are_dependencies_a_test_can_swap(tmp_path: Path) -> None:
    other_store = open_store(tmp_path / "other.db")
    game_id = other_store.create_game(players=["a", "b"], rows=4, columns=4).game_id
    app = create_app(tmp_path / "games.db")
    app.dependency_overrides[get_store] = lambda: other_store
    app.dependency_overrides[get_winner_pool] = _FixedPool
    with AppClient(app) as client:
        assert client.get("/drop_token").json() == {"games": [game_id]}
        response = client.get("/winner/" + "X" * 35 + "AAAABBB")
        assert (response.text, response.headers["order-verified"]) == ("B", "false")
    other_store.close()
