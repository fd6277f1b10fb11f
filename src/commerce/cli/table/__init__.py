"""The full-screen table of ``commerce play`` (Textual): the default on a terminal.

Everything it draws for the player comes from ``engine.observe`` of the player's seat
(through the family's :attr:`~commerce.presentation.Presentation.table` hook) and from
``engine.visible_events`` for that seat; see :mod:`commerce.cli.table.app`.
"""

from __future__ import annotations

from commerce.cli.table.app import PACES, TableApp

__all__ = ["PACES", "TableApp"]
