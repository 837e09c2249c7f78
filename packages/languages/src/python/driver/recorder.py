"""Latencies and errors of one phase: in total, per operation kind, and per second while measuring (as the
Go driver's recorder.go and the Node driver's recorder.ts). Latencies are microseconds."""

import sys
import threading
import time
from typing import Callable, Dict, List, Optional

from hdr import Histogram, clamp_us

# The names of GRPC_CODE_NAMES in packages/shared/src/results/grpc-codes.ts.
GRPC_CODE_NAMES = ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
                   "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"]


def code_name(error: BaseException) -> str:
    """The gRPC status code name of a failure: google.api_core's exceptions carry the grpc code; CLIENT_ERROR otherwise."""
    code = getattr(error, "grpc_status_code", None)
    if code is None and hasattr(error, "code") and callable(error.code):
        try:
            code = error.code()
        except Exception:
            code = None
    value = getattr(code, "value", None)
    if isinstance(value, tuple) and value and isinstance(value[0], int) and value[0] < len(GRPC_CODE_NAMES):
        return GRPC_CODE_NAMES[value[0]]
    return "CLIENT_ERROR"


class KindStats:
    __slots__ = ("histogram", "errors", "server_timing", "first_row", "last_row")

    def __init__(self) -> None:
        self.histogram = Histogram()
        self.errors: Dict[str, int] = {}
        self.server_timing: Optional[Histogram] = None
        self.first_row: Optional[Histogram] = None
        self.last_row: Optional[Histogram] = None


class Recorder:
    """One phase's figures; one lock for everything (a few increments per operation)."""

    def __init__(self, phase: str, measured: bool, kinds: List[str], open_loop: bool, pool_sampler: Optional[Callable[[], Optional[Dict[str, float]]]]) -> None:
        self.phase, self.measured, self.kinds, self.open = phase, measured, kinds, open_loop
        self.pool_sampler = pool_sampler
        self.lock = threading.Lock()
        self.done = 0
        self.all = Histogram()
        self.errors: Dict[str, int] = {}
        self.by_kind = [KindStats() for _ in kinds]
        self.second = Histogram()
        self.second_errors = 0
        self.second_start = time.perf_counter()
        self.timeline: List[dict] = []
        self.uncorrected = Histogram() if open_loop else None
        self.lag = Histogram() if open_loop else None
        self.cap_waits = 0
        self.second_waiting = 0

    def success(self, kind: int, seconds: float, uncorrected_seconds: float) -> None:
        us = clamp_us(seconds * 1e6)
        with self.lock:
            if self.uncorrected is not None:
                self.uncorrected.record(clamp_us(uncorrected_seconds * 1e6))
            self.all.record(us)
            self.by_kind[kind].histogram.record(us)
            self.second.record(us)
            self.done += 1

    def late(self, seconds: float) -> None:
        with self.lock:
            self.lag.record(clamp_us(seconds * 1e6))

    def waiting(self, n: int, arrived: bool) -> None:
        with self.lock:
            if arrived:
                self.cap_waits += 1
            self.second_waiting = max(self.second_waiting, n)

    def server_timing(self, kind: int, ms: float) -> None:
        with self.lock:
            s = self.by_kind[kind]
            if s.server_timing is None:
                s.server_timing = Histogram()
            s.server_timing.record(clamp_us(ms * 1000))

    def row_times(self, kind: int, first: float, last: float) -> None:
        with self.lock:
            s = self.by_kind[kind]
            if s.first_row is None:
                s.first_row, s.last_row = Histogram(), Histogram()
            s.first_row.record(clamp_us(first * 1e6))
            s.last_row.record(clamp_us(last * 1e6))

    def failure(self, kind: int, error: BaseException) -> None:
        code = code_name(error)
        with self.lock:
            if not self.errors.get(code):
                print(f"driver: first {code} error in {self.phase}: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
            self.errors[code] = self.errors.get(code, 0) + 1
            errors = self.by_kind[kind].errors
            errors[code] = errors.get(code, 0) + 1
            self.second_errors += 1
            self.done += 1

    def done_count(self) -> int:
        with self.lock:
            return self.done

    def close_second(self, last: bool) -> None:
        """Closes the running second into the timeline (measured phases only); the last bucket is what was
        left of a second, left out when nothing happened in it."""
        pool = self.pool_sampler() if self.pool_sampler and self.measured else None
        with self.lock:
            if not self.measured or (last and self.second.total == 0 and self.second_errors == 0):
                return
            now = time.perf_counter()
            p99 = self.second.value_at_percentile(99) / 1000 if self.second.total else 0.0
            point = {"second": len(self.timeline) + 1, "count": self.second.total, "errors": self.second_errors, "p99Ms": p99, "ms": round((now - self.second_start) * 1000, 3)}
            if pool is not None:
                point["pool"] = pool
            if self.open:
                point["waiting"] = self.second_waiting
                self.second_waiting = 0
            self.timeline.append(point)
            self.second_start = now
            self.second.reset()
            self.second_errors = 0

    def result(self, elapsed_ms: float, cpu_ms: float) -> dict:
        """The phase's result message: the totals, and per kind of the mix (they add up to the totals)."""
        with self.lock:
            operations = {}
            for k, kind in enumerate(self.kinds):
                s = self.by_kind[k]
                res = {"count": s.histogram.total, "errors": s.errors, "histogram": s.histogram.encode()}
                if s.server_timing is not None:
                    res["serverTiming"] = {"rpcs": s.server_timing.total, "histogram": s.server_timing.encode()}
                if s.first_row is not None:
                    res["rowTimes"] = {"firstRow": s.first_row.encode(), "lastRow": s.last_row.encode()}
                operations[kind] = res
            m = {"type": "result", "count": self.all.total, "errors": self.errors, "histogram": self.all.encode(), "elapsedMs": round(elapsed_ms, 3),
                 "timeline": self.timeline, "cpuMs": round(cpu_ms, 3), "operations": operations}
            if self.open:
                m["uncorrected"] = {"histogram": self.uncorrected.encode()}
                m["scheduleLag"] = {"histogram": self.lag.encode()}
                m["outstandingCapWaits"] = self.cap_waits
            return m
