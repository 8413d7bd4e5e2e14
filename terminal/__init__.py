"""What connect.py needs besides the engine: its command line and its computer player.

These modules return values and strings; only connect.py prints.
"""
