"""Commerce: rules engine, hand evaluation, bots and play for the Commerce family of card games."""

from __future__ import annotations

__version__ = "0.1.0"
