"""The Connect Four web service: the drop-token game API and the board winner check.

Run it with ``python -m service``; build the app in code with
:func:`service.main.create_app`.
"""
