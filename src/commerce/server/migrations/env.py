"""Alembic's environment: migrations run on the connection the server hands over
(:func:`commerce.server.db.migrate`); imported outside Alembic it does nothing."""

from __future__ import annotations

from alembic import context

from commerce.server.models import Base


def run() -> None:
    """Run the migrations online, on the connection in the config's attributes."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):
    run()
