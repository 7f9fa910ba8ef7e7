"""Parquet writing: rows in the order given, in row groups whose bounds depend only on the data."""

from __future__ import annotations

import contextlib
import os
from typing import Any, Final

from linewise.export._extras import require
from linewise.export._folder import METADATA_KEY, Stamp, create_temporary
from linewise.export._schema import Column, arrow_schema

__all__ = ["TableWriter"]

#: A row group is closed at the first input boundary after this many rows.
ROW_GROUP_ROWS: Final = 64 * 1024


class TableWriter:
    """Writes one table for ``path`` to a hidden temporary file, completed by :meth:`finish`.

    The export folder's commit (:mod:`linewise.export._folder`) then puts it in place.

    Rows are buffered and written at input boundaries once :data:`ROW_GROUP_ROWS`
    are held, so the same rows in the same order always give the same file.
    """

    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self._pa = require("export", "pyarrow")
        self._pq = require("export", "pyarrow.parquet")
        self.path = path
        self.rows = 0
        self._schema = arrow_schema(columns)
        self._names = [column.name for column in columns]
        self.temporary, self._file = create_temporary(
            os.path.dirname(path) or ".", os.path.basename(path)
        )
        try:
            self._writer = self._pq.ParquetWriter(
                self._file, self._schema, compression="zstd", write_statistics=True
            )
        except BaseException:
            self._file.close()
            os.remove(self.temporary)
            raise
        self._buffer: dict[str, list[Any]] = {name: [] for name in self._names}
        self._held = 0

    def add(self, columns: dict[str, list[Any]]) -> None:
        """Rows of one input, as column -> values."""
        count = len(columns[self._names[0]])
        for name in self._names:
            self._buffer[name].extend(columns[name])
        self._held += count
        self.rows += count
        if self._held >= ROW_GROUP_ROWS:
            self._flush()

    def add_batch(self, batch: Any) -> None:
        """Rows already in Arrow form (kept from an earlier export)."""
        if batch.num_rows:
            self.add(batch.to_pydict())

    def _flush(self) -> None:
        if not self._held:
            return
        table = self._pa.Table.from_pydict(self._buffer, schema=self._schema)
        self._writer.write_table(table, row_group_size=max(self._held, 1))
        self._buffer = {name: [] for name in self._names}
        self._held = 0

    def finish(self, stamp: Stamp) -> None:
        """Write what is held and the export's stamp, close the file and make it durable."""
        self._flush()
        self._writer.add_key_value_metadata({METADATA_KEY: stamp.encode()})
        self._writer.close()
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()

    def abort(self) -> None:
        """Close and remove the temporary file; the previous file, if any, stays."""
        # A full disk fails the closes too (what they would write has nowhere to go).
        with contextlib.suppress(Exception):
            self._writer.close()
        with contextlib.suppress(OSError):
            self._file.close()
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.temporary)
