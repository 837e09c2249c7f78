package main

// A minimal HDR histogram: just what the driver needs (record, add, percentile, total count and the
// V2 compressed encoding). Written here rather than imported because any module the client does not
// already depend on could raise the client's own dependency versions (minimum version selection) and
// change what is measured. Same layout and arithmetic as org.HdrHistogram and hdr-histogram-js, so
// decodeHistogram() in packages/shared reads these bytes and gets the same percentiles.

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"math"
	"math/bits"
)

// Same shape as newLatencyHistogram() in packages/shared: 1 us .. 1 h, 3 significant digits.
const (
	hdrLowest  = 1
	hdrHighest = 3_600_000_000
	hdrDigits  = 3
)

// The derived layout. With lowest 1 the unit magnitude is 0, so values need no shifting by it.
var (
	subBucketHalfCountMagnitude int // log2 of half a bucket's sub-buckets
	subBucketHalfCount          int64
	subBucketMask               int64
	leadingZeroCountBase        int
	countsArrayLength           int
)

func init() {
	largestSingleUnit := 2 * int64(math.Pow10(hdrDigits))
	subBucketCountMagnitude := int(math.Ceil(math.Log2(float64(largestSingleUnit))))
	subBucketHalfCountMagnitude = subBucketCountMagnitude - 1
	subBucketCount := int64(1) << subBucketCountMagnitude
	subBucketHalfCount = subBucketCount / 2
	subBucketMask = subBucketCount - 1
	leadingZeroCountBase = 64 - subBucketHalfCountMagnitude - 1
	// Buckets needed to cover hdrHighest; each bucket doubles the range.
	buckets, smallestUntrackable := 1, subBucketCount
	for smallestUntrackable <= hdrHighest {
		smallestUntrackable <<= 1
		buckets++
	}
	countsArrayLength = (buckets + 1) * int(subBucketHalfCount)
}

type histogram struct {
	counts   []int64
	total    int64
	maxValue int64 // the largest value recorded, as recorded
}

func newHistogram() *histogram { return &histogram{counts: make([]int64, countsArrayLength)} }

func bucketIndex(v int64) int {
	return leadingZeroCountBase - bits.LeadingZeros64(uint64(v|subBucketMask))
}

func countsIndex(v int64) int {
	b := bucketIndex(v)
	sub := v >> uint(b)
	return (b+1)<<uint(subBucketHalfCountMagnitude) + int(sub-subBucketHalfCount)
}

func valueFromIndex(i int) int64 {
	b := i>>uint(subBucketHalfCountMagnitude) - 1
	sub := int64(i)&(subBucketHalfCount-1) + subBucketHalfCount
	if b < 0 {
		sub -= subBucketHalfCount
		b = 0
	}
	return sub << uint(b)
}

// highestEquivalent is the largest value counted in the same slot as v.
func highestEquivalent(v int64) int64 {
	b := bucketIndex(v)
	sub := v >> uint(b)
	lowest := sub << uint(b)
	size := int64(1) << uint(b)
	if sub >= 2*subBucketHalfCount {
		size <<= 1
	}
	return lowest + size - 1
}

// record counts one value; callers clamp it to [hdrLowest, hdrHighest].
func (h *histogram) record(v int64) {
	h.counts[countsIndex(v)]++
	h.total++
	if v > h.maxValue {
		h.maxValue = v
	}
}

func (h *histogram) add(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.total += o.total
	if o.maxValue > h.maxValue {
		h.maxValue = o.maxValue
	}
}

func (h *histogram) reset() {
	for i := range h.counts {
		h.counts[i] = 0
	}
	h.total, h.maxValue = 0, 0
}

// valueAtPercentile is the value at or below which percentile % of the values are, with the same
// rounding as hdr-histogram-js getValueAtPercentile (0 when empty).
func (h *histogram) valueAtPercentile(percentile float64) int64 {
	p := math.Min(percentile, 100)
	fp := p / 100 * float64(h.total)
	ulp := math.Pow(2, math.Floor(math.Log2(fp))-52) // as hdr-histogram-js's ulp(); 0 for fp = 0
	want := int64(math.Max(math.Ceil(fp-ulp), 1))
	var seen int64
	for i, c := range h.counts {
		seen += c
		if seen >= want {
			v := valueFromIndex(i)
			if percentile == 0 {
				return v
			}
			return highestEquivalent(v)
		}
	}
	return 0
}

// V2 encoding cookies; | 0x10 as Java's getEncodingCookie() does (marks the LEB128 word format).
const (
	v2EncodingCookie           = 0x1c849303 | 0x10
	v2CompressedEncodingCookie = 0x1c849304 | 0x10
)

// encode is Java's encodeIntoCompressedByteBuffer as base64: an 8-byte header (cookie, length)
// around the zlib-deflated V2 encoding (40-byte header, then ZigZag LEB128 counts with runs of
// zeros as negative lengths), all big-endian.
func (h *histogram) encode() string {
	var raw bytes.Buffer
	header := make([]byte, 40)
	binary.BigEndian.PutUint32(header[0:], v2EncodingCookie)
	// header[4:8], the payload length, is filled in below; header[8:12], normalizingIndexOffset, is 0.
	binary.BigEndian.PutUint32(header[12:], hdrDigits)
	binary.BigEndian.PutUint64(header[16:], hdrLowest)
	binary.BigEndian.PutUint64(header[24:], hdrHighest)
	binary.BigEndian.PutUint64(header[32:], math.Float64bits(1)) // integerToDoubleValueConversionRatio
	raw.Write(header)
	limit := countsIndex(h.maxValue) + 1
	var word [9]byte
	for i := 0; i < limit; {
		c := h.counts[i]
		i++
		if c == 0 {
			zeros := int64(1)
			for i < limit && h.counts[i] == 0 {
				zeros++
				i++
			}
			if zeros > 1 {
				c = -zeros
			}
		}
		raw.Write(word[:putZigZag(word[:], c)])
	}
	out := raw.Bytes()
	binary.BigEndian.PutUint32(out[4:], uint32(len(out)-40))

	var z bytes.Buffer
	z.Write(make([]byte, 8))
	w := zlib.NewWriter(&z)
	w.Write(out) // writes to a bytes.Buffer do not fail
	w.Close()
	enc := z.Bytes()
	binary.BigEndian.PutUint32(enc[0:], v2CompressedEncodingCookie)
	binary.BigEndian.PutUint32(enc[4:], uint32(len(enc)-8))
	return base64.StdEncoding.EncodeToString(enc)
}

// putZigZag writes v as ZigZag LEB128-64b9B (HdrHistogram's ZigZagEncoding.putLong): 7 bits a
// byte, except that a ninth byte carries the last 8 bits whole. Returns the length.
func putZigZag(b []byte, v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	for n := 0; n < 8; n++ {
		if u>>7 == 0 {
			b[n] = byte(u)
			return n + 1
		}
		b[n] = byte(u&0x7f) | 0x80
		u >>= 7
	}
	b[8] = byte(u)
	return 9
}
