"""Build hook for the optional compiled solver; the rest of the metadata is in pyproject.toml.

``engine._native`` (engine/_native.c) is built with the machine's C
compiler when there is one. It is optional: without a compiler the install
still succeeds, and the engine searches in pure Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("engine._native", sources=["engine/_native.c"], optional=True),
    ]
)
