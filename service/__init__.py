"""The Connect Four web service: the drop-token game API and the board winner check.

Run it with ``python -m connect_four.service``; build the app in code with
:func:`connect_four.service.main.create_app`.
"""

if __name__ != "connect_four.service":
    # This folder is the package connect_four.service: imported under another name it
    # would be a second copy, with exception classes of its own.
    raise ImportError(f"import connect_four.service, not {__name__}")
