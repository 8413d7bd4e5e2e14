"""The analysis board: positions set up by playing or pasting, every column's score shown.

The scores come from the real service's ``POST /analysis``; they are checked
against the engine's own :func:`connect_four.engine.column_scores`. A test-only app whose
``/analysis`` answers 404 stands for a service without it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from playwright.sync_api import Page, expect

from browser.browser_support import AppServer, column, engine_scores, shown, status, wait_for_discs
from connect_four.service.limits import MAX_ANALYSIS_SIZE
from connect_four.service.main import create_app

pytestmark = pytest.mark.slow


def _no_analysis(app: FastAPI) -> None:
    """/analysis answers 404, as on a service without it, whatever this branch holds."""

    @app.middleware("http")
    async def not_here(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        if request.url.path == "/analysis":
            return JSONResponse({"error": "not_found", "detail": "Not Found"}, status_code=404)
        return await call_next(request)


def expect_scores(page: Page, expected: dict[int, tuple[int, bool]], columns: int) -> None:
    """The page shows the engine's score of each column both settle exactly, blank for a full one.

    The service spends its own budget, so a column either of them only
    estimates is not compared (the service's estimates come as words).
    """
    wanted = [shown(*expected[c]) if c in expected else "" for c in range(columns)]
    expect(page.locator("#scores .score")).to_have_count(columns)
    expect(page.locator("#analysis-note")).not_to_have_text("Analysing…")
    compared = 0
    for number, text in enumerate(page.locator("#scores .score").all_text_contents()):
        if number not in expected:
            assert text == "", (number, text)
        elif expected[number][1] and not text.startswith("≈"):
            assert text == wanted[number], (number, text, wanted[number])
            compared += 1
    assert compared, "no column was settled exactly by both"


def test_every_columns_score_is_shown_for_positions_played_or_pasted(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(service + "/#analysis=&r=6&c=7&moves=3,3,4")
    expected = engine_scores(6, 7, [3, 3, 4])
    expect(page.locator("#scores .score")).to_have_count(7)
    expect_scores(page, expected, 7)
    expect(page.locator("#analysis-note")).to_contain_text(re.compile(r"^Best for O: column \d \("))
    # Screen readers hear each column's score with its contents.
    expect(column(page, 3)).to_have_attribute(
        "aria-label", re.compile(r"^Column 3: X O from the bottom, room for 4; (score|estimate) ")
    )

    # A pasted list that is no game is refused in a sentence; a good one is set up.
    page.get_by_label("Move list").fill("3,3,3,3,3,3,3")
    page.get_by_role("button", name="Set up").click()
    expect(page.locator("#notice-text")).to_have_text(
        "That move list is no game on this board: move 7, column 3, cannot be played "
        "(that column is full)."
    )
    page.get_by_label("Move list").fill("3 3 3 3 3 3")
    page.get_by_role("button", name="Set up").click()
    expect(page.locator("#step-line")).to_have_text("Move 6 of 6.")
    expect(column(page, 3)).to_have_attribute("aria-disabled", "true")
    expect_scores(page, engine_scores(6, 7, [3] * 6), 7)

    # Played on by keys; a move played after stepping back starts a new line.
    page.keyboard.press("4")
    expect(page.locator("#step-line")).to_have_text("Move 7 of 7.")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("2")
    expect(page.get_by_label("Move list")).to_have_value("3,3,3,3,3,3,2")
    wait_for_discs(page, 7)

    # A game over has nothing to score.
    page.get_by_label("Move list").fill("0,1,0,1,0,1,0")
    page.get_by_role("button", name="Set up").click()
    expect(status(page)).to_have_text("X (red) has won.")
    expect(page.locator("#analysis-note")).to_have_text("The game is over: nothing to score.")


def test_estimates_are_marked(new_page: Callable[..., Page], service: str) -> None:
    page = new_page()
    page.goto(service + "/#analysis=&r=9&c=9&moves=")
    expect(page.locator("#scores .score")).to_have_count(9)
    expect(page.locator("#scores .score.estimate").first).to_contain_text("≈")
    expect(page.locator("#analysis-note")).to_contain_text("≈ marks an estimate.")


def test_without_analysis_the_page_says_so_and_the_board_still_works(
    new_page: Callable[..., Page], tmp_path: Path
) -> None:
    app = create_app(tmp_path / "games.db")
    _no_analysis(app)
    with AppServer(app) as url:
        page = new_page()
        page.goto(url + "/#analysis=&r=6&c=7&moves=")
        expect(page.locator("#analysis-note")).to_have_text(
            "Analysis unavailable: this service does not score positions (yet)."
        )
        page.keyboard.press("3")
        expect(page.locator("#step-line")).to_have_text("Move 1 of 1.")
        expect(page.locator("#analysis-note")).to_have_text(
            "Analysis unavailable: this service does not score positions (yet)."
        )
        page.close()


def test_the_board_sizes_the_page_takes_are_the_services_limit(
    new_page: Callable[..., Page], service: str
) -> None:
    largest = MAX_ANALYSIS_SIZE  # the service's own limit, which the page reads from it
    page = new_page()
    # Only the board's size is looked at: no search of the two empty boards (1 s of CPU each).
    page.route("**/analysis", lambda route: route.abort())
    page.goto(service + f"/#analysis=&r={largest}&c={largest + 1}&moves=")
    expect(page.locator("#title")).to_have_text(
        f"Analysis board, {largest} rows × 7 columns"  # too many columns: the default
    )
    page.goto(service + f"/#analysis=&r={largest + 1}&c={largest}&moves=")
    page.reload()
    expect(page.locator("#title")).to_have_text(f"Analysis board, 6 rows × {largest} columns")


def test_a_move_off_the_line_says_what_it_replaced_and_can_bring_it_back(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(service + "/#analysis=&r=6&c=7&moves=2,3,2,3,2,3,2&at=1")
    expect(page.locator("#step-line")).to_have_text("Move 1 of 7.")
    # The line's own next move steps forward and keeps the line.
    page.keyboard.press("3")
    expect(page.locator("#step-line")).to_have_text("Move 2 of 7.")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#step-line")).to_have_text("Move 1 of 7.")
    # Another one replaces the rest of the line, says so, and can take it back.
    page.keyboard.press("4")
    expect(page.get_by_label("Move list")).to_have_value("2,4")
    expect(page.locator("#step-line")).to_have_text(
        "Move 2 of 2. This move replaced the line's 6 moves after move 1 (3,2,3,2,3,2)."
    )
    page.get_by_role("button", name="Bring back the replaced moves").click()
    expect(page.get_by_label("Move list")).to_have_value("2,3,2,3,2,3,2")
    expect(page.locator("#step-line")).to_have_text("Move 1 of 7.")
    expect(page.get_by_role("button", name="Bring back the replaced moves")).to_have_count(0)


def test_the_move_list_is_clicked_and_the_steps_stop_at_the_ends(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(service + "/#analysis=&r=6&c=7&moves=")
    expect(page.locator("#step-line")).to_have_text("Move 0 of 0.")
    for name in ("« Start", "◀ Back", "Forward ▶", "End »"):
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    page.goto(service + "/#analysis=&r=6&c=7&moves=2,3,2,3")
    expect(page.locator("#step-line")).to_have_text("Move 4 of 4.")
    expect(page.get_by_role("button", name="Forward ▶")).to_be_disabled()
    expect(page.get_by_role("button", name="End »")).to_be_disabled()
    page.locator("#move-list").get_by_role("button").nth(1).click()
    expect(page.locator("#step-line")).to_have_text("Move 2 of 4.")
    wait_for_discs(page, 2)
    for name in ("« Start", "◀ Back", "Forward ▶", "End »"):
        expect(page.get_by_role("button", name=name)).to_be_enabled()
    page.get_by_role("button", name="« Start").click()
    expect(page.get_by_role("button", name="◀ Back")).to_be_disabled()
    expect(page.get_by_role("button", name="« Start")).to_be_disabled()


def test_positions_played_faster_than_they_are_scored_ask_one_analysis_at_a_time(
    new_page: Callable[..., Page], service: str
) -> None:
    """The service ends each analysis it was asked for, even if the page no longer waits: a
    page that asked for every position as it was played filled the service's queue (five) and
    said "Analysis failed: 5 analyses are in progress or waiting". The newest position waits
    for the analysis under way; the positions in between are never asked for."""
    page = new_page()
    asked: list[str] = []
    under_way: list[int] = [0, 0]  # now, the most at once

    def began(request: Any) -> None:
        if request.url.endswith("/analysis"):
            asked.append(json.loads(request.post_data)["moves"])
            under_way[0] += 1
            under_way[1] = max(under_way)

    def ended(request: Any) -> None:
        if request.url.endswith("/analysis"):
            under_way[0] -= 1

    page.on("request", began)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    page.goto(service + "/#analysis=&r=7&c=8&moves=")
    played = [3, 4, 3, 4, 2, 5, 2, 5]
    for number in played:
        column(page, number).click()
    wait_for_discs(page, len(played))
    expect(page.locator("#analysis-note")).to_contain_text("Best for X", timeout=60_000)
    expect(page.locator("#scores .score")).to_have_count(8)
    assert under_way[1] == 1, asked
    assert asked[-1] == played, asked
    assert len(asked) < len(played) + 1, asked  # the empty board, then what the page caught up with
