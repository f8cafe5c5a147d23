"""The 'postgres' extra's packages, imported here once: every PostgreSQL module imports them from
this one, so an install without the extra is told how to add it, whichever module it opened first."""

from __future__ import annotations

try:  # the 'postgres' extra
    import psycopg
    from psycopg.types.json import Jsonb
    from psycopg_pool import ConnectionPool
    from pgvector.psycopg import register_vector
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the PostgreSQL store needs the 'postgres' extra: pip install -e '.[postgres]'"
    ) from exc

__all__ = ["ConnectionPool", "Jsonb", "psycopg", "register_vector"]
