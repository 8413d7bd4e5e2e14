"""Build hook for the optional compiled solver; the rest of the metadata is in pyproject.toml.

Two modules, each built with the machine's C compiler when there is one,
from the one search in engine/_native_search.h: ``connect_four.engine._native`` (64-bit
bitboards, engine/_native.c) and ``connect_four.engine._native128`` (128-bit bitboards
for the wider boards, engine/_native128.c, only where the compiler has
``unsigned __int128``). Both are optional: without them the install still
succeeds, and the engine searches in pure Python.
"""

from setuptools import Extension, setup

SEARCH = ["engine/_native_search.h", "engine/_native_database.h"]

setup(
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
    ]
)
