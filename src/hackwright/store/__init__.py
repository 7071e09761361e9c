"""Persistence: the SQLite store shared by the skill library and the agent loop (spec §8.3).

See :mod:`hackwright.store.db` for the connection rules (WAL, busy timeout,
migrations, corrupt files) and :mod:`hackwright.store.skills` for the skill library's
queries (its runs and statistics live in the run database too).
"""

from .db import (
    MIGRATIONS,
    CorruptDatabaseError,
    StoreConnection,
    StoreError,
    connect,
    migrate,
    schema_version,
    transaction,
    utc_now,
)

__all__ = [
    "MIGRATIONS",
    "CorruptDatabaseError",
    "StoreConnection",
    "StoreError",
    "connect",
    "migrate",
    "schema_version",
    "transaction",
    "utc_now",
]
