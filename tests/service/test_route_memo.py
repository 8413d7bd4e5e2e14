"""The suite's kept route models (tests/route_memo.py): each built once, and apps still apart.

No test asks that this FastAPI has the builders route_memo wraps: a release
that renames them must not turn a fresh machine's run red; the suite then
only runs slower.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import route_memo
from app_client import AppClient

from connect_four.engine.board_check import BoardVerdict
from connect_four.service.dependencies import get_winner_pool
from connect_four.service.main import create_app


def test_a_field_is_built_once_per_name_type_and_mode() -> None:
    calls: list[tuple[str, Any, str]] = []

    def create(*, name: str, type_: Any, mode: str = "validation", **more: Any) -> object:
        calls.append((name, type_, mode))
        return object()

    kept = route_memo._kept_fields(create)
    first = kept(name="Response_a", type_=int, mode="serialization")
    assert kept(name="Response_a", type_=int, mode="serialization") is first
    assert kept(name="Response_a", type_=str, mode="serialization") is not first
    assert kept(name="Response_a", type_=int) is not first
    assert len(calls) == 3
    # A call of a shape this memo does not know (another FastAPI's) is never kept.
    other = kept(name="Response_a", type_=int, mode="serialization", alias="a")
    assert kept(name="Response_a", type_=int, mode="serialization", alias="a") is not other
    assert len(calls) == 5


def test_a_dependency_tree_is_built_once_per_path_endpoint_and_dependencies() -> None:
    calls: list[str] = []

    def build(*, path: str, call: Any, dependencies: list[Any], **more: Any) -> object:
        calls.append(path)
        return object()

    def endpoint() -> None: ...

    kept = route_memo._kept_dependants(build)
    shared: list[Any] = [object()]
    first = kept(path="/a", call=endpoint, dependencies=shared)
    assert kept(path="/a", call=endpoint, dependencies=list(shared)) is first
    assert kept(path="/a", call=endpoint, dependencies=[object()]) is not first
    assert kept(path="/b", call=endpoint, dependencies=shared) is not first
    assert calls == ["/a", "/a", "/b"]
    other = kept(path="/a", call=endpoint, dependencies=shared, scope="request")
    assert kept(path="/a", call=endpoint, dependencies=shared, scope="request") is not other
    assert calls == ["/a", "/a", "/b", "/a", "/a"]


class _AnswersB:
    """A winner pool that answers B for every board, without a worker process."""

    async def check(
        self, board: str, rows: int, columns: int, connect: int, first: str
    ) -> BoardVerdict:
        return BoardVerdict("B", False)


def test_apps_sharing_kept_routes_keep_their_own_overrides(tmp_path: Path) -> None:
    board = "/winner/" + "X" * 42  # an empty 6 x 7 board: nobody has won
    plain = create_app(tmp_path / "plain.db")
    overridden = create_app(tmp_path / "overridden.db")
    overridden.dependency_overrides[get_winner_pool] = _AnswersB
    with AppClient(plain) as first, AppClient(overridden) as second:
        assert first.get(board).text == "X"
        assert second.get(board).text == "B"
        assert first.get(board).text == "X"
