"""connect_four.terminal.discs in-process: colours only when asked, NO_COLOR honoured, the engine untouched."""

from __future__ import annotations

import re

import pytest

from connect_four.engine import Game, render
from connect_four.terminal.discs import DISC_COLOURS, RESET, WINNING, Discs
from connect_four.terminal.options import parse_options

ANSI = re.compile(r"\x1b\[[0-9;]*m")
WON = Game.from_moves("0,7,0,6,0,5,0")


def test_plain_discs_are_the_assignment_letters():
    discs = Discs(highlight=False, color=False)
    assert discs.playing == ["X", "O"]
    assert not discs.marks_winner


def test_highlight_plays_lowercase_and_marks_the_winner_in_uppercase():
    discs = Discs(highlight=True, color=False)
    assert (discs.playing, discs.winning, discs.marks_winner) == (["x", "o"], ["X", "O"], True)


def test_colour_gives_each_player_a_colour_and_the_winner_reverse_video():
    discs = Discs(highlight=False, color=True)
    assert discs.playing == [f"{DISC_COLOURS[0]}X{RESET}", f"{DISC_COLOURS[1]}O{RESET}"]
    assert discs.winning == [
        f"{DISC_COLOURS[0]}{WINNING}X{RESET}",
        f"{DISC_COLOURS[1]}{WINNING}O{RESET}",
    ]
    assert DISC_COLOURS[0] != DISC_COLOURS[1]
    assert discs.marks_winner


@pytest.mark.parametrize("highlight", [False, True])
def test_coloured_grid_reads_like_the_plain_one_once_colours_are_removed(highlight):
    coloured = Discs(highlight=highlight, color=True)
    plain = Discs(highlight=highlight, color=False)
    cells = WON.outcome().cells
    shown = render(
        WON, markers=coloured.playing, highlight=cells, highlight_markers=coloured.winning
    )
    expected = render(WON, markers=plain.playing, highlight=cells, highlight_markers=plain.winning)
    assert ANSI.sub("", shown) == expected
    # Every winning cell, and only those, is in reverse video.
    assert shown.count(WINNING) == len(cells) == 4


def test_colour_is_never_on_unless_asked(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert not parse_options(["--announce"]).color
    assert parse_options(["--color"]).color
    assert parse_options(["--colour"]).color


@pytest.mark.parametrize("value, coloured", [("1", False), ("anything", False), ("", True)])
def test_no_color_set_to_a_non_empty_value_turns_colour_off(monkeypatch, value, coloured):
    monkeypatch.setenv("NO_COLOR", value)
    assert parse_options(["--color"]).color is coloured
