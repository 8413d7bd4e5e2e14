"""``python -m connect_four.service``: the command line of :mod:`connect_four.service.cli`.

Nothing is imported here unless this runs as the program. The winner and
analysis pools start their workers with ``spawn``, which runs this module
again in each worker under another name; the workers need the engine, not
the web framework, which took a tenth of a second and 30 MB more each.
"""

if __name__ == "__main__":
    from connect_four.service.cli import main

    main()
