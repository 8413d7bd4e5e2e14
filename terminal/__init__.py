"""What connect.py needs besides the engine: its command line, its conversation and its extras.

These modules return values, strings and steps; only connect.py prints,
reads and waits. They form layers, each importing only the ones below it
(pyproject.toml's import contracts hold this in CI):

- the conversations: ``session`` (the local game, a match),
  ``lobby_game`` (the service's lobby, ``--lobby``) and ``network_game``
  (a friend over the drop-token service); beside them the example bot,
  ``bot`` (``connect-four-bot``), a program of its own;
- what they use: ``options`` (the command line), ``computer``,
  ``commands``, ``discs``, the lobby's client ``lobby``; and the HTTP
  client ``network``;
- leaves, importing none of their siblings: ``errors``, ``settings``,
  ``steps``, ``dialog``, ``match``, ``pacing``, ``streams``,
  ``player_keys`` (the lobby's key file).
"""

if __name__ != "connect_four.terminal":
    # This folder is the package connect_four.terminal: imported under another name it
    # would be a second copy, with exception classes of its own.
    raise ImportError(f"import connect_four.terminal, not {__name__}")
