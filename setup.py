"""The build step that ships the ruleset pages with the package.

Everything else is declared in pyproject.toml. ``build_py`` copies ``docs/rulesets/*.md``
into ``commerce/pages/`` of the build, so that an installed ``commerce`` shows each
ruleset's page in the table's help (:mod:`commerce.cli.table.help`); a source checkout reads
the pages from ``docs/rulesets/`` itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PAGES = Path(__file__).resolve().parent / "docs" / "rulesets"


class BuildWithPages(build_py):
    """``build_py``, then the ruleset pages into ``commerce/pages/``."""

    def run(self) -> None:
        """Build the modules, then copy the pages."""
        super().run()
        target = Path(self.build_lib) / "commerce" / "pages"
        target.mkdir(parents=True, exist_ok=True)
        for page in sorted(PAGES.glob("*.md")):
            shutil.copyfile(page, target / page.name)


setup(cmdclass={"build_py": BuildWithPages})
