"""At a real terminal (a tmux pane), keys typed while the friend thinks are neither shown nor played.

The pane runs ``connect.py --join`` for bob against a real service; ann
plays over HTTP. While bob's pane waits for ann, the test types a column:
it must not show beside the waiting line, and once ann's move arrives the
prompt stands empty and the next column typed is the one played, shown
once: typed at the terminal's own line editing, or, where GNU readline
reads the prompt, edited with readline's keys.
"""

from __future__ import annotations

import shlex

import pytest
from test_connect_tmux import Tmux, run_in_pane
from test_connect_tmux import tmux as panes  # noqa: F401 (the fixture, by this name here)
from test_connect_tmux_quit import RUNNERS

from network_support import create_game, moves_of, play

pytestmark = pytest.mark.slow

WAITING = "Waiting for ann to move... (Ctrl-C quits the game)"

# The keys that type column 2 at the prompt: plainly, or with readline's
# editing (7, left, 2, right, erase), which needs readline to know where the
# prompt ends.
KEYS = {
    "plain": [["-l", "2"]],
    "readline": [["-l", "7"], ["Left"], ["-l", "2"], ["Right"], ["BSpace"]],
}


@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_keys_typed_while_waiting_are_not_echoed_nor_played(
    runner: str,
    drop_token_service: str,
    panes: Tmux,  # noqa: F811 (the fixture imported above)
) -> None:
    """On the session's shared service (conftest.py), in a game of the test's own."""
    tmux = panes
    url = drop_token_service
    game, tokens = create_game(url, ["ann", "bob"])
    command = shlex.join(
        [
            *RUNNERS[runner],
            "--join",
            f"{url}/drop_token/{game}/bob",
            "--token",
            tokens["bob"],
        ]
    )
    bob = tmux.new_pane(run_in_pane(command), first=True)
    tmux.wait_for(bob, WAITING)
    tmux.type_line(bob, "5")  # typed ahead, while ann thinks
    play(url, game, "ann", tokens["ann"], "3")
    screen = tmux.wait_for(bob, "Enter a column:")
    after_wait = screen.split(WAITING, 1)[1]
    assert "5" not in after_wait.split("ann plays 3.")[0], screen  # never echoed
    assert screen.rstrip().endswith("Enter a column:"), screen  # the prompt stands empty
    for keys in KEYS[runner]:
        tmux.run("send-keys", "-t", bob, *keys)
    tmux.run("send-keys", "-t", bob, "Enter")
    screen = tmux.wait_for(bob, WAITING, 2)
    # The column shows once, after the prompt; the grid follows (an erased
    # key may leave a blank at the end of its line).
    lines = "\n".join(line.rstrip() for line in screen.splitlines())
    assert "\nEnter a column: 2\n\n" in lines, screen
    assert moves_of(url, game) == [
        {"type": "MOVE", "player": "ann", "column": 3},
        {"type": "MOVE", "player": "bob", "column": 2},
    ]
    play(url, game, "ann", tokens["ann"], "quit")
    assert tmux.exit_status(bob) == 0, tmux.screen(bob)
    assert tmux.screen(bob).count("bob (O) wins.") == 1
