"""Analytics export: logs to Parquet tables (runs, entries), queried with DuckDB.

Needs the ``export`` extra (pyarrow, DuckDB); ``engine="dask"`` needs the
``dask`` extra. Both are imported only when used.
"""

from __future__ import annotations

from linewise.export._engines import ENGINES, default_workers
from linewise.export._export import (
    ENTRIES_FILE,
    RUNS_FILE,
    ExportError,
    ExportResult,
    export_logs,
)
from linewise.export._extras import MissingExtraError
from linewise.export._query import EXAMPLE_QUERIES, QueryResult, run_query
from linewise.export._schema import ENTRIES_COLUMNS, RUNS_COLUMNS, Column
from linewise.export._work import ExportFailure, FileExport, export_file, export_sessions

__all__ = [
    "ENGINES",
    "ENTRIES_COLUMNS",
    "ENTRIES_FILE",
    "EXAMPLE_QUERIES",
    "RUNS_COLUMNS",
    "RUNS_FILE",
    "Column",
    "ExportError",
    "ExportFailure",
    "ExportResult",
    "FileExport",
    "MissingExtraError",
    "QueryResult",
    "default_workers",
    "export_file",
    "export_logs",
    "export_sessions",
    "run_query",
]
