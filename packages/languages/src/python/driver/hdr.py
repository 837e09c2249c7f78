"""A minimal HDR histogram: record, percentile, total and the V2 compressed encoding, with the layout and
arithmetic of org.HdrHistogram, hdr-histogram-js and the Go driver's hdr.go, so that decodeHistogram() in
packages/shared reads these bytes and gets the same percentiles. Written here rather than installed (the
hdrhistogram wheel) because every package added to a version's venv could move the client's own
dependency versions, and so what is measured; its encoding is also not the one the others send."""

import base64
import math
import struct
import zlib

# Same shape as newLatencyHistogram() in packages/shared: 1 us .. 1 h, 3 significant digits.
LOWEST = 1
HIGHEST = 3_600_000_000
DIGITS = 3

_largest_single_unit = 2 * 10**DIGITS
_sub_bucket_count_magnitude = math.ceil(math.log2(_largest_single_unit))
_SUB_HALF_MAG = _sub_bucket_count_magnitude - 1
_sub_bucket_count = 1 << _sub_bucket_count_magnitude
_SUB_HALF = _sub_bucket_count // 2
_SUB_MASK = _sub_bucket_count - 1
_LZC_BASE = 64 - _SUB_HALF_MAG - 1
_buckets, _smallest_untrackable = 1, _sub_bucket_count
while _smallest_untrackable <= HIGHEST:
    _smallest_untrackable <<= 1
    _buckets += 1
COUNTS_LENGTH = (_buckets + 1) * _SUB_HALF

# V2 encoding cookies, | 0x10 as Java's getEncodingCookie() does (the LEB128 word format).
_V2_COOKIE = 0x1C849303 | 0x10
_V2_COMPRESSED_COOKIE = 0x1C849304 | 0x10


def _bucket_index(v: int) -> int:
    # 64 - bit_length is the count of leading zeros of a 64-bit word.
    return _LZC_BASE - (64 - (v | _SUB_MASK).bit_length())


def counts_index(v: int) -> int:
    b = _bucket_index(v)
    return ((b + 1) << _SUB_HALF_MAG) + ((v >> b) - _SUB_HALF)


def _value_from_index(i: int) -> int:
    b = (i >> _SUB_HALF_MAG) - 1
    sub = (i & (_SUB_HALF - 1)) + _SUB_HALF
    if b < 0:
        sub -= _SUB_HALF
        b = 0
    return sub << b


def _highest_equivalent(v: int) -> int:
    b = _bucket_index(v)
    sub = v >> b
    size = 1 << b
    if sub >= 2 * _SUB_HALF:
        size <<= 1
    return (sub << b) + size - 1


def clamp_us(us: float) -> int:
    return min(max(int(us), LOWEST), HIGHEST)


class Histogram:
    __slots__ = ("counts", "total", "max_value")

    def __init__(self) -> None:
        self.counts = [0] * COUNTS_LENGTH
        self.total = 0
        self.max_value = 0

    def record(self, v: int) -> None:
        """Counts one value; callers clamp it to [LOWEST, HIGHEST] (clamp_us)."""
        self.counts[counts_index(v)] += 1
        self.total += 1
        if v > self.max_value:
            self.max_value = v

    def reset(self) -> None:
        self.counts = [0] * COUNTS_LENGTH
        self.total = 0
        self.max_value = 0

    def value_at_percentile(self, percentile: float) -> int:
        """The value at or below which percentile % of the values are, rounded as hdr-histogram-js does (0 when empty)."""
        fp = min(percentile, 100) / 100 * self.total
        ulp = 2 ** (math.floor(math.log2(fp)) - 52) if fp > 0 else 0
        want = max(math.ceil(fp - ulp), 1)
        seen = 0
        for i, c in enumerate(self.counts):
            seen += c
            if seen >= want:
                v = _value_from_index(i)
                return v if percentile == 0 else _highest_equivalent(v)
        return 0

    def encode(self) -> str:
        """Java's encodeIntoCompressedByteBuffer as base64: an 8-byte header (cookie, length) around the
        zlib-deflated V2 encoding (40-byte header, then ZigZag LEB128 counts with runs of zeros as negative
        lengths), all big-endian."""
        body = bytearray()
        limit = counts_index(self.max_value) + 1 if self.max_value else 1
        counts = self.counts
        i = 0
        while i < limit:
            c = counts[i]
            i += 1
            if c == 0:
                zeros = 1
                while i < limit and counts[i] == 0:
                    zeros += 1
                    i += 1
                if zeros > 1:
                    c = -zeros
            _put_zigzag(body, c)
        header = struct.pack(">IIIIqqd", _V2_COOKIE, len(body), 0, DIGITS, LOWEST, HIGHEST, 1.0)
        compressed = zlib.compress(header + bytes(body))
        return base64.b64encode(struct.pack(">II", _V2_COMPRESSED_COOKIE, len(compressed)) + compressed).decode("ascii")


def _put_zigzag(out: bytearray, v: int) -> None:
    """v as ZigZag LEB128-64b9B (HdrHistogram's ZigZagEncoding.putLong): 7 bits a byte, except that a
    ninth byte carries the last 8 bits whole."""
    u = ((v << 1) ^ (v >> 63)) & 0xFFFFFFFFFFFFFFFF
    for _ in range(8):
        if u >> 7 == 0:
            out.append(u)
            return
        out.append((u & 0x7F) | 0x80)
        u >>= 7
    out.append(u & 0xFF)
