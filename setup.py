"""Ships the templates and help pages inside the wheel (issue #15 item 13).

They live at the top of the repository (``site_templates/``, ``docs/``: the help pages
are also read on GitHub), outside the ``standgen`` package, so a plain ``pip install .``
would leave them behind. This copies both into the built package as
``standgen/_data/``, where :func:`standgen.build.shipped` finds them. Everything else is
in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SHIPPED = ("site_templates", "docs")


class BuildWithData(build_py):
    """build_py that also copies the shipped folders into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads them from the source tree
            return
        for name in SHIPPED:
            target = Path(self.build_lib) / "standgen" / "_data" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / name, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(
    cmdclass={"build_py": BuildWithData},
    ext_modules=[Extension("standgen.pairing._blossom", ["standgen/pairing/_blossom.c"],
                           optional=True)],
)
