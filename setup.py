"""Build hooks; the rest of the metadata is in pyproject.toml.

Two jobs pyproject.toml cannot say:

- ``connect.py`` stays at the checkout's top level, where the course's
  grader runs it, and ships as the module ``connect_four.connect`` (the
  ``connect-four`` command): ``BuildPy`` adds it to the package.
- The optional compiled solver: two modules, each built with the machine's
  C compiler when there is one, from the one search in
  engine/_native_search.h: ``connect_four.engine._native`` (64-bit
  bitboards, engine/_native.c) and ``connect_four.engine._native128``
  (128-bit bitboards for the wider boards, engine/_native128.c, only where
  the compiler has ``unsigned __int128``). Both are optional: without them
  the install still succeeds, and the engine searches in pure Python. An
  editable install builds them in place, beside their sources in engine/.
"""

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

SEARCH = [
    "engine/_native_search.h",
    "engine/_native_module.h",
    "engine/_native_table.h",
    "engine/_native_database.h",
]
"""The headers both modules compile in: a change to one rebuilds them."""

GAME = ("connect_four", "connect", "connect.py")
"""The top-level game file as a module of the package: (package, module, file)."""


class BuildPy(build_py):
    """The standard build_py, with connect.py added to the package connect_four."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        modules: list[tuple[str, str, str]] = super().find_package_modules(package, package_dir)
        if package == GAME[0]:
            modules.append(GAME)
        return modules


setup(
    cmdclass={"build_py": BuildPy},
    ext_modules=[
        Extension(
            "connect_four.engine._native",
            sources=["engine/_native.c"],
            depends=SEARCH,
            optional=True,
        ),
        Extension(
            "connect_four.engine._native128",
            sources=["engine/_native128.c"],
            depends=SEARCH,
            optional=True,
        ),
    ],
)
