"""Doctest collection of the docs: ``research.md`` needs the optional packages of the research
API; where one is missing it is left out on a developer's machine, never under ``CI``."""

from __future__ import annotations

import importlib.util
import os

_MISSING = any(importlib.util.find_spec(m) is None for m in ("pettingzoo", "gymnasium", "pyspiel"))

collect_ignore = ["research.md"] if _MISSING and not os.environ.get("CI") else []
