"""The one part of the build pyproject.toml cannot say: Common Carrier's optional C speed-up.

``optional=True``: where it does not compile (no C compiler, or one without 128-bit integers, such
as MSVC) the install goes on without it and the game runs its own Python code, which plays the same
games. Built for the stable ABI of Python 3.10, so one wheel serves 3.10 and later.
"""
from setuptools import Extension, setup

setup(
    ext_modules=[Extension("cardgen.games._cc_fast", ["cardgen/games/_cc_fast.c"],
                           optional=True, py_limited_api=True)],
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
