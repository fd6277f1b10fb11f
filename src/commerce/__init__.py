"""Commerce: rules engine, hand evaluation, bots and play for the Commerce family of card games."""

from __future__ import annotations

__version__ = "0.1.0"

# The built-in families register themselves (and their presets) when the package is first
# imported, so every lookup sees all of them whatever is imported first.
from commerce import families as _families  # noqa: E402,F401
