"""The protocol's JSON lines on the real stdout (sys.stdout is pointed at stderr, so that nothing a library
prints breaks a line the runner parses), and the driver's exits."""

import json
import os
import sys
import threading
from typing import Optional

EXIT_FAILED, EXIT_DEADLINE, EXIT_UNSUPPORTED, EXIT_MISMATCH = 2, 3, 4, 5

_failing = threading.Lock()


def fail(message: str, code: int) -> None:
    """Writes the sentence the runner shows as the last stderr line, then leaves at once (every thread)."""
    _failing.acquire()
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    finally:
        os._exit(code)


class Output:
    def __init__(self) -> None:
        self.out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
        sys.stdout = sys.stderr
        self.lock = threading.Lock()

    def emit(self, message: dict) -> None:
        """One message as one line, in one write: lines of the ticker and of the main thread never mix."""
        line = json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n"
        with self.lock:
            self.out.write(line)
            self.out.flush()

    def progress(self, phase: str, done: int, total: Optional[int], elapsed_ms: float) -> None:
        m = {"type": "progress", "phase": phase, "done": done, "elapsedMs": round(elapsed_ms, 3), "qps": round(done * 1000 / max(1.0, elapsed_ms), 3)}
        if total is not None:
            m["total"] = total
        self.emit(m)
