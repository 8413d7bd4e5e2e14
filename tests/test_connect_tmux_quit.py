"""At a real terminal (a tmux pane), a friend's quit ends the player's prompt at once.

ann creates the game in one pane and stands at her prompt (X moves first);
bob joins in a second pane with the command ann's pane shows, then presses
Ctrl-C while he waits. Without anything typed in ann's pane, it tells that
bob quit, that the game is finished and who won, and connect.py ends with
status 0, as when the quit is found after a move.
"""

from __future__ import annotations

import shlex

import pytest
from test_connect_tmux import EXIT_MARK, Tmux, run_in_pane
from test_connect_tmux import tmux as panes  # noqa: F401 (the fixture, by this name here)

from connect_support import CONNECT
from network_support import JOIN_LINE, join_lines, moves_of

pytestmark = pytest.mark.slow

PROMPT = "Enter a column: "


# connect.py as a program, and run where GNU readline reads the prompt (an
# interactive Python has it loaded, and input() then reads through it).
RUNNERS = {
    "plain": ["python3", str(CONNECT)],
    "readline": [
        "python3",
        "-c",
        "import readline, runpy, sys; sys.argv[0] = sys.argv[1]; del sys.argv[1]; "
        "runpy.run_path(sys.argv[0], run_name='__main__')",
        str(CONNECT),
    ],
}


@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_a_friends_ctrl_c_ends_the_players_prompt_without_a_key_typed(
    runner: str,
    drop_token_service: str,
    panes: Tmux,  # noqa: F811 (the fixture imported above)
) -> None:
    """On the session's shared service (conftest.py), in a game of the test's own."""
    tmux = panes
    url = drop_token_service
    creator = shlex.join([*RUNNERS[runner], "--server", url, "--name", "ann", "--friend", "bob"])
    ann = tmux.new_pane(run_in_pane(creator), first=True)
    screen = tmux.wait_for(ann, PROMPT)
    joins = join_lines(screen)
    assert len(joins) == 2, screen  # the friend's, then the creator's own
    game = JOIN_LINE.match(joins[0])["game"]  # type: ignore[index]
    bob = tmux.new_pane(run_in_pane(joins[0].strip()), first=False)
    tmux.wait_for(bob, "Waiting for ann to move... (Ctrl-C quits the game)")

    tmux.run("send-keys", "-t", bob, "C-c")
    assert tmux.exit_status(bob) == 130, tmux.screen(bob)
    assert tmux.exit_status(ann) == 0, tmux.screen(ann)
    screen = tmux.screen(ann)
    # The prompt's line ends; then the lines of a quit found after a move.
    ending = screen.split("X's turn\n")[-1].split(EXIT_MARK)[0]
    assert ending == f"{PROMPT}\nbob (O) quits.\nGame finished.\nann (X) wins.\n", screen
    assert "Traceback" not in screen
    assert moves_of(url, game) == [{"type": "QUIT", "player": "bob"}]
