"""Doctest collection of the package: the research environments' modules need the optional
packages (``commerce[rl]``, ``commerce[openspiel]``); where one is missing they are left out on
a developer's machine, never where the environment variable ``CI`` is set."""

from __future__ import annotations

import importlib.util
import os

_NEEDS = {"commerce/rl/aec.py": "pettingzoo", "commerce/rl/gym.py": "gymnasium",
          "commerce/rl/vector.py": "gymnasium", "commerce/rl/openspiel.py": "pyspiel",
          "commerce/rl/__init__.py": "pettingzoo"}

collect_ignore = [] if os.environ.get("CI") else [
    path for path, module in _NEEDS.items() if importlib.util.find_spec(module) is None]
