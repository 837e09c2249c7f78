"""The Python driver: one process, one fresh google-cloud-spanner client, one cell (docs/architecture.md,
"Driver protocol"). Reads the cell as JSON on stdin, writes JSON lines on stdout, exits by itself. Exit
codes: 0 done, 2 failed, 3 deadline reached, 4 option not supported by this client version, 5 a scan
decoded values other than the result's (scan.py). The last stderr line is the sentence the user reads on
a failed cell.

Run by the installed version's venv (packages/languages/src/python/index.ts): its standard library, the
client and the client's own dependencies only."""

import json
import os
import sys
import threading
import time

# The deadline counts from process start, like the runner's clock for this process.
PROCESS_START = time.perf_counter()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from output import EXIT_DEADLINE, EXIT_FAILED, EXIT_UNSUPPORTED, Output, fail  # noqa: E402
from protocol_gen import DriverCell, ProtocolError, read_DriverCell  # noqa: E402


def parse_cell(text: str) -> DriverCell:
    """The cell, read by the generated reader; then what this driver cannot run, each with a sentence."""
    cell = read_DriverCell(json.loads(text), "")
    from load import SHAPES
    from operations import OPERATIONS

    if cell.cap is not None and (cell.cap.ops < 1 or not cell.cap.ms > 0):
        raise ProtocolError("cap.ops and cap.ms must be positive")
    if not cell.deadline_ms > 0 or cell.deadline_ms == float("inf"):
        raise ProtocolError("deadlineMs must be a positive number")
    load = cell.load
    if (load.measured_ops is None) == (load.duration_ms is None):
        raise ProtocolError("give exactly one of load.measuredOps or load.durationMs")
    if load.measured_ops is not None and load.measured_ops < 1:
        raise ProtocolError("load.measuredOps must be at least 1")
    if load.duration_ms is not None and not load.duration_ms > 0:
        raise ProtocolError("load.durationMs must be positive")
    if load.warmup_ops < 0:
        raise ProtocolError("load.warmupOps must not be negative")
    if load.shape not in SHAPES:
        raise ProtocolError(f"unknown load shape {load.shape} (this driver knows: {', '.join(sorted(SHAPES))})")
    if load.shape == "closed" and load.concurrency < 1:
        raise ProtocolError("load.concurrency must be at least 1")
    if load.shape == "open" and (not load.rate_per_second > 0 or load.max_outstanding < 1):
        raise ProtocolError("load.ratePerSecond must be above 0 and load.maxOutstanding at least 1")
    if not cell.operations:
        raise ProtocolError("operations must list at least one operation kind")
    for m in cell.operations:
        if m.kind not in OPERATIONS:
            raise ProtocolError(f"unknown operation kind {m.kind} (this driver knows: {', '.join(sorted(OPERATIONS))})")
        if m.kind == "scan" and cell.result_set is None:
            raise ProtocolError("operation scan needs resultSet")
        if not m.weight > 0 or m.weight == float("inf"):
            raise ProtocolError(f"the weight of operation {m.kind} must be a positive number")
    return cell


def run(cell: DriverCell, out: Output) -> None:
    from client import Rpcs, check_configuration, client_version, new_database, unsupported
    from load import CostCap, LoadRunner, Mix
    from operations import OPERATIONS
    from scan import check_scan

    check_configuration(cell)
    check_scan(cell, unsupported, client_version())
    rpcs = Rpcs()
    t0 = time.perf_counter()
    connecting = threading.Event()

    def report_connecting() -> None:
        # Client start may take a while (a fixed pool creates its sessions): keep reporting.
        while True:
            out.progress("connecting", 0, None, (time.perf_counter() - t0) * 1000)
            if connecting.wait(1.0):
                return

    reporter = threading.Thread(target=report_connecting, daemon=True)
    reporter.start()
    try:
        database, pool_sampler = new_database(cell, rpcs)
    finally:
        connecting.set()
        reporter.join()
    mix = Mix(cell.operations)
    ops = [OPERATIONS[kind](database, cell, rpcs) for kind in mix.kinds]
    runner = LoadRunner(cell.load, mix, ops, out, CostCap(cell.cap, rpcs.sessions_created), pool_sampler, rpcs)
    out.emit(runner.run())


def threads_at_deadline(limit: int = 3) -> str:
    """Where the other threads wait when the deadline fires, most common first: each thread's innermost frame
    in the client or gRPC (else its innermost), as file:line function. A hang then names its place."""
    places: dict = {}
    me = threading.get_ident()
    for ident, frame in sys._current_frames().items():
        if ident == me:
            continue
        chosen, f = frame, frame
        while f is not None:
            name = f.f_code.co_filename.replace(os.sep, "/")
            if "/google/" in name or "/grpc/" in name:
                chosen = f
                break
            f = f.f_back
        name = chosen.f_code.co_filename.replace(os.sep, "/")
        short = name.split("site-packages/")[-1] if "site-packages/" in name else "/".join(name.split("/")[-3:])
        place = f"{short}:{chosen.f_lineno} {chosen.f_code.co_name}"
        places[place] = places.get(place, 0) + 1
    top = sorted(places.items(), key=lambda kv: -kv[1])
    text = "; ".join(f"{n}× {place}" for place, n in top[:limit])
    more = sum(n for _, n in top[limit:])
    return f"threads waiting: {text}{f'; {more} elsewhere' if more else ''}" if top else "no other threads"


def main() -> None:
    out = Output()
    try:
        cell = parse_cell(sys.stdin.read())
    except (ProtocolError, ValueError) as e:
        fail(f"driver: bad cell spec: {e}", EXIT_FAILED)
    left = max(cell.deadline_ms / 1000 - (time.perf_counter() - PROCESS_START), 0)
    timer = threading.Timer(left, lambda: fail(f"driver: deadline of {int(cell.deadline_ms)} ms reached before the cell finished ({threads_at_deadline()})", EXIT_DEADLINE))
    timer.daemon = True
    timer.start()
    from client import UnsupportedOption

    try:
        run(cell, out)
    except UnsupportedOption as e:
        fail(str(e), EXIT_UNSUPPORTED)
    except Exception as e:
        fail(f"driver: the cell failed: {type(e).__name__}: {e}", EXIT_FAILED)
    # The result is out: no waiting for the client's threads and sessions.
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
