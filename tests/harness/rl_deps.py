"""Optional packages of the research API (``commerce[rl]``) for the tests.

:func:`need` imports one; where it is missing the test is skipped on a developer's machine,
but fails where the environment variable ``CI`` is set (CI installs every extra).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str, extra: str = "rl") -> ModuleType:
    """The imported *module*, or a skip (locally) / a failure (under ``CI``) if missing
    (*extra*: the optional extra that installs it)."""
    if os.environ.get("CI"):
        try:
            return importlib.import_module(module)
        except ImportError as exc:
            pytest.fail(f"{module} is needed under CI (pip install -e '.[{extra}]'): {exc}")
    return pytest.importorskip(module, reason=f"pip install -e '.[{extra}]'")
