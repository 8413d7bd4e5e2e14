"""Connect Four: the engine, the terminal game and the web service, as one installed package.

Installed, ``connect_four.engine``, ``.terminal``, ``.service`` and
``.connect`` are folders and a module inside this package. In a checkout
they are the top level's engine/, terminal/, service/ and connect.py, where
the assignment wants them, and this folder holds only this file: the
checkout's top folder joins the package's search path, so each module has
one name, ``connect_four.*``, installed or not, with no links to follow.
"""

import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
_top = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "engine")) and _os.path.isfile(
    _os.path.join(_top, "engine", "__init__.py")
):
    # A checkout: the subpackages are the top folder's (see the docstring).
    __path__.append(_top)
