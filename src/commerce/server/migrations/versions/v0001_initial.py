"""The first schema: players, tables, games and who played which seat.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True, index=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("invite", sa.String(16), nullable=False, unique=True, index=True),
        sa.Column("host_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("ruleset", sa.String(60), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("timeout_s", sa.Float, nullable=False),
        sa.Column("turn_timer_s", sa.Float, nullable=True),
        sa.Column("offer_window_s", sa.Float, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False,
                  index=True),
        sa.Column("ruleset", sa.String(60), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("complete", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False,
                  index=True),
    )


def downgrade() -> None:
    """Drop the tables."""
    for name in ("game_seats", "games", "tables", "players"):
        op.drop_table(name)
