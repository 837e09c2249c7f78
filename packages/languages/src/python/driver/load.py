"""The warm-up and measured phases of a cell, as the Go driver's load.go does them: the cell's load shape
issues operations until the phase's budget (an operation count or a duration) is used up; each one is
picked from the weighted operation mix and recorded. The closed shape is one thread per agent (how Python
applications use this synchronous client); the open shape draws its arrivals ahead on a thread of its
own and hands each to a worker thread, at most maxOutstanding at once."""

import gc
import random
import resource
import threading
import time
from collections import deque
from typing import Callable, Deque, Dict, List, Optional

from protocol_gen import Cap, ClosedLoad, Load, OpenLoad, OperationMixEntry, ThinkTime
from recorder import Recorder

FOREVER = float("inf")


def thinker(t: Optional[ThinkTime]) -> Callable[[], float]:
    """An agent's pause before each operation, seconds: fixed, or exponential with that mean."""
    if t is None or t.ms <= 0:
        return lambda: 0.0
    mean = t.ms / 1000
    if t.distribution == "fixed":
        return lambda: mean
    return lambda: random.expovariate(1 / mean)


def arrival_gap(rate_per_second: float, distribution: str) -> Callable[[], float]:
    """The time to an open loop's next arrival, seconds: exponential (Poisson arrivals) or fixed."""
    mean = 1 / rate_per_second
    if distribution == "uniform":
        return lambda: mean
    return lambda: random.expovariate(rate_per_second)


def run_closed(load: ClosedLoad, take: Callable[[], bool], run_one: Callable[[Optional[float]], None], until_end: Callable[[], float], rec: Recorder) -> None:
    """`concurrency` agents, each claiming an operation, thinking, then running it; they start together at a
    barrier, so that a cold client's first traffic is one burst at the target concurrency."""
    think = thinker(load.think_time)
    gate = threading.Barrier(load.concurrency)

    def agent() -> None:
        gate.wait()
        while take():
            # A think time past a timed phase's end is cut there and its operation not run.
            d, left = think(), until_end()
            if d >= left:
                if left > 0:
                    time.sleep(left)
                break
            if d > 0:
                time.sleep(d)
            run_one(None)

    threads = [threading.Thread(target=agent, daemon=True) for _ in range(load.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def run_open(load: OpenLoad, take: Callable[[], bool], run_one: Callable[[Optional[float]], None], until_end: Callable[[], float], rec: Recorder) -> None:
    """Operations arriving on a schedule drawn ahead (the next arrival never depends on how the last went):
    each starts at its time on a worker thread, or waits in line while maxOutstanding run; a worker that
    ends takes the next in line."""
    gap = arrival_gap(load.rate_per_second, load.distribution)
    lock = threading.Condition()
    line: Deque[float] = deque()
    handed: Deque[Optional[float]] = deque()
    state = {"outstanding": 0, "idle": 0}
    workers: List[threading.Thread] = []

    def worker() -> None:
        while True:
            with lock:
                while not handed:
                    state["idle"] += 1
                    lock.wait()
                    state["idle"] -= 1
                intended = handed.popleft()
            if intended is None:
                return
            while True:
                run_one(intended)
                with lock:
                    if not line:
                        state["outstanding"] -= 1
                        break
                    intended = line.popleft()
                    rec.waiting(len(line), False)

    left = until_end()
    timed = left != FOREVER
    nxt = time.perf_counter()
    end = nxt + left if timed else FOREVER
    while True:
        if timed and nxt >= end:
            break
        pause = nxt - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        if not take():
            break
        with lock:
            if state["outstanding"] < load.max_outstanding:
                state["outstanding"] += 1
                rec.late(time.perf_counter() - nxt)
                handed.append(nxt)
                if state["idle"] == 0:
                    t = threading.Thread(target=worker, daemon=True)
                    workers.append(t)
                    t.start()
                lock.notify()
            else:
                line.append(nxt)
                rec.waiting(len(line), True)
        nxt += gap()
    with lock:
        handed.extend([None] * len(workers))
        lock.notify_all()
    for t in workers:
        t.join()


SHAPES = {"closed": run_closed, "open": run_open}


class Mix:
    """Picks operation kinds with probability weight / total weight."""

    def __init__(self, entries: List[OperationMixEntry]) -> None:
        self.kinds: List[str] = []
        self.weights: List[float] = []
        self.entry_kind: List[int] = []
        index: Dict[str, int] = {}
        for e in entries:
            if e.kind not in index:
                index[e.kind] = len(self.kinds)
                self.kinds.append(e.kind)
            self.weights.append(e.weight)
            self.entry_kind.append(index[e.kind])
        self.total = sum(self.weights)

    def pick(self) -> int:
        if len(self.entry_kind) == 1:
            return self.entry_kind[0]
        r = random.random() * self.total
        for i, w in enumerate(self.weights):
            r -= w
            if r < 0:
                return self.entry_kind[i]
        return self.entry_kind[-1]


class CostCap:
    """The cell's cost cap over both phases: operations started in all, time since the start, sessions created."""

    def __init__(self, limit: Optional[Cap], sessions_created: Callable[[], int]) -> None:
        self.limit, self.sessions_created = limit, sessions_created
        self.started = 0
        self.t0 = time.perf_counter()
        self.lock = threading.Lock()
        self.hit: Optional[str] = None

    def take(self) -> bool:
        if self.limit is None:
            return True
        with self.lock:
            self.started += 1
            if self.started > self.limit.ops:
                reason = "ops"
            elif (time.perf_counter() - self.t0) * 1000 >= self.limit.ms:
                reason = "time"
            elif self.limit.sessions is not None and self.sessions_created() >= self.limit.sessions:
                reason = "sessions"
            else:
                return True
            self.hit = self.hit or reason
            return False


class GcTimer:
    """Time the collector ran (gc.callbacks), seconds."""

    def __init__(self) -> None:
        self.total = 0.0
        self._start: Dict[int, float] = {}
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        me = threading.get_ident()
        if phase == "start":
            self._start[me] = time.perf_counter()
        elif me in self._start:
            self.total += time.perf_counter() - self._start.pop(me)


def process_cpu_ms() -> float:
    """The CPU time of the whole process (every thread, the client's included)."""
    u = resource.getrusage(resource.RUSAGE_SELF)
    return (u.ru_utime + u.ru_stime) * 1000


class LoadRunner:
    def __init__(self, load: Load, mix: Mix, ops: List[Callable[[int], None]], out, cap: CostCap, pool_sampler, rpcs) -> None:
        self.load, self.mix, self.ops, self.out, self.cap = load, mix, ops, out, cap
        # rpcs (client.Rpcs): the thread's operation kind and the running phase's recorder, for the RPCs it sees.
        self.pool_sampler, self.rpcs = pool_sampler, rpcs
        self.open = load.shape == "open"

    def run(self) -> dict:
        """The warm-up operations, then the measured phase; the result message."""
        load = self.load
        if load.warmup_ops > 0:
            self.phase("warmup", load.warmup_ops, None)
        gc_timer = GcTimer()
        result = self.phase("measure", load.measured_ops, load.duration_ms)
        result["gcMs"] = round(gc_timer.total * 1000, 3)
        result["peakRssBytes"] = float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
        if self.cap.hit:
            result["capped"] = self.cap.hit
        result["sessionsCreated"] = self.rpcs.sessions_created()
        return result

    def phase(self, name: str, ops: Optional[int], ms: Optional[float]) -> Optional[dict]:
        measured = name == "measure"
        rec = Recorder(name, measured, self.mix.kinds, self.open, self.pool_sampler)
        self.rpcs.recorder = rec
        t0 = time.perf_counter()
        cpu0 = process_cpu_ms()
        end = t0 + ms / 1000 if ms is not None else FOREVER
        started = [0]
        budget_lock = threading.Lock()

        def take() -> bool:
            if ops is not None:
                with budget_lock:
                    started[0] += 1
                    within = started[0] <= ops
            else:
                within = time.perf_counter() < end
            return within and self.cap.take()

        def run_one(intended: Optional[float]) -> None:
            k = self.mix.pick()
            self.rpcs.kind_of_thread.kind = k
            s = time.perf_counter()
            try:
                self.ops[k](k)
            except Exception as e:  # every failure is counted by its gRPC code
                rec.failure(k, e)
            else:
                e_ = time.perf_counter()
                rec.success(k, e_ - (intended if intended is not None else s), e_ - s)

        def progress() -> None:
            self.out.progress(name, rec.done_count(), ops, (time.perf_counter() - t0) * 1000)

        def until_end() -> float:
            return FOREVER if ms is None else end - time.perf_counter()

        progress()
        stop = threading.Event()

        def ticker() -> None:
            while not stop.wait(1.0):
                rec.close_second(False)
                progress()

        tick = threading.Thread(target=ticker, daemon=True)
        tick.start()
        SHAPES[self.load.shape](self.load, take, run_one, until_end, rec)
        stop.set()
        tick.join()
        elapsed_ms = (time.perf_counter() - t0) * 1000
        rec.close_second(True)
        cpu_ms = process_cpu_ms() - cpu0
        progress()
        return rec.result(elapsed_ms, cpu_ms) if measured else None
