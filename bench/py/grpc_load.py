# Load child for bench/node-gap.ts: the C-core gRPC client (Python grpcio) as a reference, raw
# ExecuteStreamingSql streams on one channel (no Spanner client), `concurrency` threads back to back.
# argv: port concurrency seconds request_hex. The request is serialized by the bench (the fake's own
# proto), replies are not decoded. Prints one JSON line: {count, errors, elapsedMs, cpuMs, p50Ms, p99Ms}.
import json
import resource
import sys
import threading
import time

import grpc

port, concurrency, seconds, request_hex = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
request = bytes.fromhex(request_hex)
channel = grpc.insecure_channel(f"127.0.0.1:{port}")
grpc.channel_ready_future(channel).result(timeout=10)
call = channel.unary_stream(
    "/google.spanner.v1.Spanner/ExecuteStreamingSql",
    request_serializer=lambda b: b,
    response_deserializer=lambda b: b,
)

latencies = []
errors = [0]
lock = threading.Lock()


def worker(end):
    while time.perf_counter() < end:
        t = time.perf_counter()
        try:
            for _ in call(request):
                pass
        except grpc.RpcError:
            with lock:
                errors[0] += 1
            continue
        ms = (time.perf_counter() - t) * 1000
        with lock:
            latencies.append(ms)


cpu0 = resource.getrusage(resource.RUSAGE_SELF)
t0 = time.perf_counter()
end = t0 + seconds
threads = [threading.Thread(target=worker, args=(end,)) for _ in range(concurrency)]
for th in threads:
    th.start()
for th in threads:
    th.join()
elapsed = (time.perf_counter() - t0) * 1000
cpu1 = resource.getrusage(resource.RUSAGE_SELF)
s = sorted(latencies)
at = lambda p: round(s[min(len(s) - 1, int(p / 100 * len(s)))], 2) if s else 0
print(json.dumps({
    "count": len(s),
    "errors": errors[0],
    "elapsedMs": elapsed,
    "cpuMs": ((cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)) * 1000,
    "p50Ms": at(50),
    "p99Ms": at(99),
}))
