"""Connect Four: the engine, the terminal game and the web service, as one installed package.

In a checkout the subpackages are the folders of the top level (engine/,
terminal/, service/) and the game is connect.py, as the assignment asks;
this folder links to them, so each module has one name, ``connect_four.*``,
wherever it runs from. A copy that lost the links (an archive without them)
still runs: the checkout's top folder is then searched for the subpackages.
"""

import os as _os

if not _os.path.isdir(_os.path.join(__path__[0], "engine")):
    _top = _os.path.dirname(_os.path.abspath(__path__[0]))
    if _os.path.isfile(_os.path.join(_top, "connect.py")):
        __path__.append(_top)
