"""One fresh google-cloud-spanner client for the cell, with what the configuration asks: the session pool
(FixedSizePool with its size, BurstyPool, PingingPool), multiplexed sessions where the version has the
switch; every option a version lacks refused by name (UnsupportedOption: exit 4). The gRPC channel the
client makes is wrapped to count the sessions it creates and to read each RPC's server-timing header."""

import os
import re
import threading
from importlib import metadata
from typing import Callable, Dict, Optional, Tuple

import grpc

from protocol_gen import DriverCell

# Multiplexed sessions (3.55.0 on) are switched by these variables, read when the client starts.
MULTIPLEXED_ENV = ["GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS", "GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW", "GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_PARTITIONED_OPS"]
MULTIPLEXED_SINCE = (3, 55, 0)
LAZY_DECODE_SINCE = (3, 51, 0)


class UnsupportedOption(Exception):
    """An option this client version does not have: the driver exits 4 with this sentence."""


def client_version() -> Tuple[int, int, int]:
    parts = (metadata.version("google-cloud-spanner").split(".") + ["0", "0"])[:3]
    return tuple(int(re.match(r"\d*", p).group() or 0) for p in parts)  # type: ignore[return-value]


def unsupported(cell: DriverCell, option: str, why: str = "") -> UnsupportedOption:
    return UnsupportedOption(f"option {option} is not supported by {cell.client.language} {cell.client.version}{': ' + why if why else ''}")


class Rpcs:
    """What the wrapped channel saw: sessions created, and each RPC's server-timing (to the running phase's
    recorder, for the kind the calling thread runs)."""

    GFE = re.compile(r"gfet4t7;\s*dur=([0-9.]+)")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sessions = 0
        self.kind_of_thread = threading.local()
        self.recorder = None  # the running phase's, set by the load runner

    def sessions_created(self) -> int:
        with self.lock:
            return self.sessions

    def done(self, method: str, kind: Optional[int], call) -> None:
        try:
            if call.code() != grpc.StatusCode.OK:
                return
            if method.endswith("/CreateSession"):
                with self.lock:
                    self.sessions += 1
            elif method.endswith("/BatchCreateSessions"):
                n = len(call.result().session)
                with self.lock:
                    self.sessions += n
            rec = self.recorder
            if kind is None or rec is None:
                return
            for key, value in call.initial_metadata() or ():
                if key == "server-timing":
                    m = self.GFE.search(value if isinstance(value, str) else value.decode())
                    if m:
                        rec.server_timing(kind, float(m.group(1)))
        except Exception:  # an RPC that failed or was cancelled: nothing to count
            pass

    def interceptor(self):
        rpcs = self

        class Interceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
            def _watch(self, details, call):
                kind = getattr(rpcs.kind_of_thread, "kind", None)
                call.add_done_callback(lambda c: rpcs.done(details.method, kind, c))
                return call

            def intercept_unary_unary(self, continuation, details, request):
                return self._watch(details, continuation(details, request))

            def intercept_unary_stream(self, continuation, details, request):
                return self._watch(details, continuation(details, request))

        return Interceptor()

    def wrap_channels(self) -> None:
        """Every channel grpc makes from now on goes through the interceptor (the client makes one)."""
        interceptor = self.interceptor()
        insecure, secure = grpc.insecure_channel, grpc.secure_channel
        grpc.insecure_channel = lambda *a, **k: grpc.intercept_channel(insecure(*a, **k), interceptor)
        grpc.secure_channel = lambda *a, **k: grpc.intercept_channel(secure(*a, **k), interceptor)


class PoolCount:
    """Sessions the pool has handed out and not yet taken back (the timeline's pool.in_use)."""

    def __init__(self, pool) -> None:
        self.lock = threading.Lock()
        self.in_use = 0
        get, put = pool.get, pool.put

        def counted_get(*a, **k):
            session = get(*a, **k)
            with self.lock:
                self.in_use += 1
            return session

        def counted_put(session):
            with self.lock:
                self.in_use -= 1
            return put(session)

        pool.get, pool.put = counted_get, counted_put

    def sample(self) -> Dict[str, float]:
        with self.lock:
            return {"in_use": float(self.in_use)}


def check_configuration(cell: DriverCell) -> None:
    """Refuses, before anything connects, what this client and version do not have."""
    c = cell.configuration
    version = client_version()
    foreign = {"operationTimeoutMs": c.operation_timeout_ms, "decodeMode": c.decode_mode, "nodeRows": c.node_rows, "nodeScan": c.node_scan, "goJsonUseNumber": c.go_json_use_number,
               "dynamicChannelPool": c.dynamic_channel_pool}
    for option, value in foreign.items():
        if value is not None:
            raise unsupported(cell, option, "an option of another language's client")
    if c.grpc_gcp == "on":
        raise unsupported(cell, "grpcGcp", "grpc-gcp is not available in the Python driver")
    if c.num_channels is not None:
        raise unsupported(cell, "numChannels", "the Python client opens one gRPC channel and exposes no count")
    sp = c.session_pool
    if sp is not None:
        for option, value in (("minSessions", sp.min_sessions), ("maxIdle", sp.max_idle), ("writeSessionsFraction", sp.write_sessions_fraction), ("trackSessionHandles", sp.track_session_handles)):
            if value is not None:
                raise unsupported(cell, f"sessionPool.{option}", "its pools take one size (sessionPool.maxSessions)")
    if c.multiplexed_sessions is not None and version < MULTIPLEXED_SINCE:
        raise unsupported(cell, "multiplexedSessions", "multiplexed sessions came in google-cloud-spanner 3.55.0")
    if c.python_lazy_decode is not None and version < LAZY_DECODE_SINCE:
        raise unsupported(cell, "pythonLazyDecode", "lazy_decode came in google-cloud-spanner 3.51.0")


def new_database(cell: DriverCell, rpcs: Rpcs) -> Tuple[object, Optional[Callable[[], Dict[str, float]]]]:
    """The client, its instance and database (with the configuration's pool: its sessions are created now),
    and the sampler of the pool's figures."""
    c = cell.configuration
    e = cell.endpoint
    address = f"{e.host}:{e.port}"
    if e.resolver is not None:
        address = f"dns://{e.resolver.server}/{e.resolver.name}:{e.port}"
    for name in MULTIPLEXED_ENV:
        if c.multiplexed_sessions is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = "true" if c.multiplexed_sessions else "false"
    rpcs.wrap_channels()

    from google.auth.credentials import AnonymousCredentials
    from google.cloud import spanner
    from google.cloud.spanner_v1 import pool as pools

    if e.security == "tls":
        os.environ.pop("SPANNER_EMULATOR_HOST", None)
        if e.tls_roots_file:
            os.environ["GRPC_DEFAULT_SSL_ROOTS_FILE_PATH"] = e.tls_roots_file
        credentials = AnonymousCredentials()
        if os.environ.get("GOOGLE_APPLICATION_CREDENTIALS") or os.environ.get("GCE_METADATA_HOST"):
            import google.auth

            credentials, _ = google.auth.default(scopes=["https://www.googleapis.com/auth/spanner.data"])
        client = spanner.Client(project=cell.database.project_id, credentials=credentials, client_options={"api_endpoint": address})
    else:
        # The client's emulator mode: an insecure channel to this address, no credentials.
        os.environ["SPANNER_EMULATOR_HOST"] = address
        client = spanner.Client(project=cell.database.project_id)

    size = c.session_pool.max_sessions if c.session_pool is not None else None
    kind = c.python_pool or ("fixed" if size is not None else None)
    pool = None
    if kind == "fixed":
        pool = pools.FixedSizePool(**({"size": size} if size is not None else {}))
    elif kind == "bursty":
        pool = pools.BurstyPool(**({"target_size": size} if size is not None else {}))
    elif kind == "pinging":
        pool = pools.PingingPool(**({"size": size} if size is not None else {}))
    else:
        pool = pools.FixedSizePool()  # the client's own default, made here so that it is counted
    database = client.instance(cell.database.instance_id).database(cell.database.database_id, pool=pool)
    # Counted from here: binding the pool (above) fills it, through put() in some pools.
    return database, PoolCount(pool).sample
