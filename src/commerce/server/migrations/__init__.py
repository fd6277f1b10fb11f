"""The database's Alembic migrations, shipped with the package and run at the server's start."""
