"""The `scan` operation: a single-use query whose result has the job's shape (the cell's resultSet), every
row read, the columns its `read` names taken as the client's own Python values and folded into each
column's checksum as packages/shared/src/result-set/values.ts defines it (the Go driver's scan.go does the
same). A checksum or a row count other than the result's ends the driver (exit 5) with one sentence naming
the column and its type. With pythonLazyDecode the query asks for lazy_decode=True (3.51.0 on) and the
application decodes the columns it reads (decode_column), as the client's documentation says."""

import base64
import calendar
import json
import math
import struct
import time
from typing import Any, Callable, Dict, List

from output import EXIT_MISMATCH, fail
from protocol_gen import DriverCell, ScanColumn

CHECKSUM_START = 0x811C9DC5
END, NULL, OPEN, CLOSE = 0x110000, 0x110001, 0x110002, 0x110003
MASK = 0xFFFFFFFF


def fold(h: int, unit: int) -> int:
    return ((h ^ unit) * 16777619) & MASK


def fold_text(h: int, t: str) -> int:
    """A text's UTF-16 code units."""
    for ch in t:
        o = ord(ch)
        if o > 0xFFFF:
            o -= 0x10000
            h = fold(fold(h, 0xD800 + (o >> 10)), 0xDC00 + (o & 0x3FF))
        else:
            h = ((h ^ o) * 16777619) & MASK
    return h


def _float_bits(v: float, width: int) -> str:
    if math.isnan(v):
        return "NaN"
    return struct.pack(">d" if width == 64 else ">f", v).hex()


def _timestamp(v) -> str:
    nanos = getattr(v, "nanosecond", None)
    if nanos is None:
        nanos = v.microsecond * 1000
    return f"{calendar.timegm(v.utctimetuple())}.{nanos:09d}"


def _numeric(v) -> str:
    text = format(v, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _json(v) -> str:
    # The client's JsonObject: a dict, or one that wraps an array or a scalar.
    if getattr(v, "_is_array", False):
        v = v._array_value
    elif getattr(v, "_is_scalar_value", False):
        v = v._simple_value
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _bytes(h: int, v) -> int:
    # The client hands BYTES over as their base64 text (encoded to bytes): the application decodes it.
    for b in base64.b64decode(v):
        h = fold(h, b)
    return h


# Each type's units of a non-NULL value: a text, or (BYTES, STRING) folded directly.
TEXT: Dict[str, Callable[[Any], str]] = {
    "BOOL": lambda v: "true" if v else "false",
    "INT64": str,
    "FLOAT64": lambda v: _float_bits(v, 64),
    "FLOAT32": lambda v: _float_bits(v, 32),
    "DATE": lambda v: v.isoformat(),
    "TIMESTAMP": _timestamp,
    "NUMERIC": _numeric,
    "JSON": _json,
    "UUID": lambda v: str(v).lower(),
}


def fold_scalar(h: int, type_: str, v) -> int:
    if type_ == "STRING":
        h = fold_text(h, v)
    elif type_ == "BYTES":
        h = _bytes(h, v)
    else:
        h = fold_text(h, TEXT[type_](v))
    return fold(h, END)


def fold_value(h: int, c: ScanColumn, v) -> int:
    if v is None:
        return fold(h, NULL)
    if not c.array:
        return fold_scalar(h, c.type, v)
    h = fold(h, OPEN)
    for e in v:
        h = fold(h, NULL) if e is None else fold_scalar(h, c.type, e)
    return fold(h, CLOSE)


def type_name(c: ScanColumn) -> str:
    return f"ARRAY<{c.type}>" if c.array else c.type


def decoded(cell: DriverCell) -> List[ScanColumn]:
    q = cell.result_set
    return q.columns if q.read == "all" else q.columns[:1] if q.read == "first" else []


# The types that came to the client after its first versions: the version that decodes them (its
# CHANGELOG.md) and the change, for the refusal. NUMERIC is in the TypeCode of every version that decodes it.
LATER_TYPES = {
    "JSON": ((3, 9, 0), "3.9.0 (python-spanner PR #353)"),
    "FLOAT32": ((3, 44, 0), "3.44.0 (python-spanner PR #1113)"),
    "UUID": ((3, 62, 0), "3.62.0 (python-spanner PR #1310)"),
}


def check_scan(cell: DriverCell, unsupported, version) -> None:
    """Refuses, before the client connects, a scan with a column of a type this version does not decode (its
    TypeCode lacks it, or its decoder came later): every column, since the client decodes each row whole as
    it hands it over; with lazy_decode only those the application reads."""
    if cell.result_set is None:
        return
    try:
        from google.cloud.spanner_v1 import TypeCode
    except ImportError:  # 1.x: the generated enums (google-cloud-spanner 1.17.0 has TypeCode there only)
        from google.cloud.spanner_v1.gapic.enums import TypeCode

    for c in decoded(cell) if cell.configuration.python_lazy_decode else cell.result_set.columns:
        later = LATER_TYPES.get(c.type)
        if not hasattr(TypeCode, c.type) or (later and version < later[0]):
            since = f" (the client decodes {c.type} from {later[1]} on)" if later else ""
            raise unsupported(cell, f"workload.resultSet {type_name(c)}", f"it does not decode {c.type}, which column {c.name} holds{since}")


def scan(db, cell: DriverCell, rpcs):
    q = cell.result_set
    columns = decoded(cell)
    lazy = bool(cell.configuration.python_lazy_decode)
    kw = {"lazy_decode": True} if lazy else {}

    def run(kind: int) -> None:
        t0 = time.perf_counter()
        first = last = 0.0
        sums = [CHECKSUM_START] * len(columns)
        rows = 0
        with db.snapshot() as snapshot:
            results = snapshot.execute_sql(q.sql, **kw)
            for row in results:
                rows += 1
                if rows == 1:
                    first = time.perf_counter() - t0
                for i, c in enumerate(columns):
                    try:
                        v = results.decode_column(row, i) if lazy else row[i]
                        sums[i] = fold_value(sums[i], c, v)
                    except Exception as e:  # a value the client could not give or the application not read
                        fail(f"scan: column {c.name} ({type_name(c)}) could not be decoded in row {rows}: {type(e).__name__}: {e} (read {q.read}, {q.rows} rows)", EXIT_MISMATCH)
                # The result's last row read (a count other than the result's fails below): no clock read per row.
                if rows == q.rows:
                    last = time.perf_counter() - t0
        if rows != q.rows:
            fail(f"scan: {rows} rows decoded, the result has {q.rows}", EXIT_MISMATCH)
        for i, c in enumerate(columns):
            if sums[i] != c.checksum & MASK:
                fail(f"scan: column {c.name} ({type_name(c)}) decoded to values whose checksum is {sums[i]:x}, the result's is {c.checksum & MASK:x} (read {q.read}, {q.rows} rows)", EXIT_MISMATCH)
        rec = rpcs.recorder
        if rec is not None:
            rec.row_times(kind, first, last)

    return run
