"""Who hosts or holds a seat at each table, indexed by player (a player's tables are found
by player, not by reading the newest tables); filled from the tables already stored.

Revision ID: 0002
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``table_players`` and fill it from every table's host and seats."""
    op.create_table(
        "table_players",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True,
                  index=True),
    )
    connection = op.get_bind()
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("host_id", sa.String),
                      sa.column("seats", sa.Text))
    players = sa.table("players", sa.column("id", sa.String))
    links = sa.table("table_players", sa.column("table_id", sa.String),
                     sa.column("player_id", sa.String))
    known = {r.id for r in connection.execute(sa.select(players.c.id))}
    rows = []
    for t in connection.execute(sa.select(tables.c.id, tables.c.host_id, tables.c.seats)):
        members = {t.host_id}
        try:
            seats = json.loads(t.seats)
        except ValueError:
            seats = []
        members |= {s.get("player_id") for s in seats
                    if isinstance(s, dict) and s.get("kind") == "human"}
        rows += [{"table_id": t.id, "player_id": p} for p in sorted(members & known)]
    if rows:
        op.bulk_insert(links, rows)


def downgrade() -> None:
    """Drop ``table_players``."""
    op.drop_table("table_players")
