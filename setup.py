"""The one part of the build pyproject.toml cannot say: the optional C extension.

``tarock_logs._native._core`` is compiled with the system C compiler when there is one. It is
``optional``: without a compiler (or when the compile fails) the build warns and goes on, and
the package runs on its pure-Python paths. Editable installs (``pip install -e .``, what
``make setup`` does) build it in place next to its sources.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tarock_logs._native._core",
            sources=["tarock_logs/_native/module.c", "tarock_logs/_native/solver.c"],
            depends=[
                "tarock_logs/_native/cards.h",
                "tarock_logs/_native/cardloop.h",
                "tarock_logs/_native/openspiel.h",
                "tarock_logs/_native/solver.h",
                "tarock_logs/_native/zrloop.h",
                "tarock_logs/_native/zrhand.h",
                "tarock_logs/_native/royalloop.h",
                "tarock_logs/_native/royalhand.h",
                "tarock_logs/_native/slohand.h",
                "tarock_logs/_native/sloscore.h",
                "tarock_logs/_native/lane.h",
            ],
            extra_compile_args=["-O3", "-std=c99"],
            libraries=["m"],
            optional=True,
        )
    ]
)
