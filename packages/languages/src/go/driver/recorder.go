package main

// Latencies and errors of one phase: in total, per operation kind, and per second while measuring
// (as PhaseRecorder in packages/languages/src/node/driver/recorder.ts). Latencies are microseconds.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"cloud.google.com/go/spanner"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type kindStats struct {
	histogram *histogram
	errors    map[string]int64
	// The server-timing time per RPC, microseconds; nil until a header came.
	serverTiming *histogram
	// A scan's times from its start to its first row and to its last, microseconds; nil until one was read.
	firstRow, lastRow *histogram
}

// recorder is one phase's; one lock for everything (a few array increments per operation).
type recorder struct {
	phase    string
	measured bool
	kinds    []string

	mu           sync.Mutex
	done         int64
	all          *histogram
	errors       map[string]int64
	byKind       []kindStats
	second       *histogram
	secondErrors int64
	secondStart  time.Time
	timeline     []TimelinePoint

	// An open loop's: latencies from the actual start, the driver's lag, the line at the outstanding cap.
	open          bool
	uncorrected   *histogram
	lag           *histogram
	capWaits      int64
	secondWaiting int64
}

// newRecorder gives every kind of the mix an entry, even one never picked (as Node and Java do).
func newRecorder(phase string, measured bool, kinds []string, open bool) *recorder {
	r := &recorder{phase: phase, measured: measured, kinds: kinds, all: newHistogram(), errors: map[string]int64{},
		second: newHistogram(), secondStart: time.Now(), timeline: []TimelinePoint{}, open: open}
	if open {
		r.uncorrected, r.lag = newHistogram(), newHistogram()
	}
	for range kinds {
		r.byKind = append(r.byKind, kindStats{histogram: newHistogram(), errors: map[string]int64{}})
	}
	return r
}

// success records an operation's latency d from its intended start; an open loop's also from its
// actual start (uncorrected).
func (r *recorder) success(kind int, d, uncorrected time.Duration) {
	us := clampUs(d)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.uncorrected != nil {
		r.uncorrected.record(clampUs(uncorrected))
	}
	r.all.record(us)
	r.byKind[kind].histogram.record(us)
	r.second.record(us)
	r.done++
}

func clampUs(d time.Duration) int64 { return min(max(d.Microseconds(), hdrLowest), hdrHighest) }

// late records how late an open loop started an operation that did not wait for the cap.
func (r *recorder) late(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lag.record(clampUs(d))
}

// waiting notes n operations waiting for the outstanding cap; arrived: one more joined them.
func (r *recorder) waiting(n int, arrived bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if arrived {
		r.capWaits++
	}
	r.secondWaiting = max(r.secondWaiting, int64(n))
}

// serverTiming records one RPC's server-timing duration for an operation kind.
func (r *recorder) serverTiming(kind int, ms float64) {
	us := min(max(int64(ms*1000), hdrLowest), hdrHighest)
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.byKind[kind]
	if s.serverTiming == nil {
		s.serverTiming = newHistogram()
	}
	s.serverTiming.record(us)
}

// rowTimes records one scan's times from its start to its first row and to its last (scan.go).
func (r *recorder) rowTimes(kind int, first, last time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.byKind[kind]
	if s.firstRow == nil {
		s.firstRow, s.lastRow = newHistogram(), newHistogram()
	}
	s.firstRow.record(clampUs(first))
	s.lastRow.record(clampUs(last))
}

func (r *recorder) failure(kind int, err error) {
	code := codeName(err)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.errors[code] == 0 {
		fmt.Fprintf(os.Stderr, "driver: first %s error in %s: %v\n", code, r.phase, err)
	}
	r.errors[code]++
	r.byKind[kind].errors[code]++
	r.secondErrors++
	r.done++
}

func (r *recorder) doneCount() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// closeSecond closes the running second into the timeline (measured phases only); the last bucket
// is what was left of a second, and is left out when nothing happened in it.
func (r *recorder) closeSecond(last bool) {
	// Sampled before taking the lock: the agents' records do not wait for the pool's views.
	var pool map[string]float64
	if poolSampler != nil && r.measured {
		if sample := poolSampler(); sample != nil {
			pool = make(map[string]float64, len(sample))
			for k, v := range sample {
				pool[k] = float64(v)
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.measured || (last && r.second.total == 0 && r.secondErrors == 0) {
		return
	}
	now := time.Now()
	p99 := 0.0
	if r.second.total > 0 {
		p99 = float64(r.second.valueAtPercentile(99)) / 1000
	}
	ms := round3(float64(now.Sub(r.secondStart)) / 1e6)
	point := TimelinePoint{Second: float64(len(r.timeline) + 1), Count: float64(r.second.total), Errors: float64(r.secondErrors),
		P99Ms: p99, Ms: &ms, Pool: pool}
	if r.open {
		waiting := r.secondWaiting
		point.Waiting = &waiting
		r.secondWaiting = 0
	}
	r.timeline = append(r.timeline, point)
	r.secondStart = now
	r.second.reset()
	r.secondErrors = 0
}

// result is the phase's result message: the totals, and per kind of the mix (they add up to the totals).
func (r *recorder) result(elapsedMs, cpuMs float64) *ResultMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	ops := map[string]OperationResult{}
	for k, kind := range r.kinds {
		s := r.byKind[k]
		res := OperationResult{Count: s.histogram.total, Errors: s.errors, Histogram: s.histogram.encode()}
		if s.serverTiming != nil {
			res.ServerTiming = &ServerTiming{Rpcs: s.serverTiming.total, Histogram: s.serverTiming.encode()}
		}
		if s.firstRow != nil {
			res.RowTimes = &RowTimes{FirstRow: s.firstRow.encode(), LastRow: s.lastRow.encode()}
		}
		ops[kind] = res
	}
	m := &ResultMessage{Type: "result", Count: r.all.total, Errors: r.errors, Histogram: r.all.encode(),
		ElapsedMs: round3(elapsedMs), Timeline: r.timeline, CPUMs: round3(cpuMs), Operations: ops}
	if r.open {
		waits := r.capWaits
		m.Uncorrected = &Uncorrected{Histogram: r.uncorrected.encode()}
		m.ScheduleLag = &ScheduleLag{Histogram: r.lag.encode()}
		m.OutstandingCapWaits = &waits
	}
	return m
}

// The names of GRPC_CODE_NAMES in packages/shared/src/results/grpc-codes.ts (and Java's
// Status.Code names): grpc-go's own Code.String() spells them differently (DeadlineExceeded).
var grpcCodeNames = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
	"UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// codeName is the gRPC status code name of a failure; CLIENT_ERROR when it is not a gRPC error.
func codeName(err error) string {
	name := func(c codes.Code) string {
		if int(c) < len(grpcCodeNames) {
			return grpcCodeNames[c]
		}
		return "CLIENT_ERROR"
	}
	var se *spanner.Error
	if errors.As(err, &se) {
		return name(se.Code)
	}
	if s, ok := status.FromError(err); ok {
		return name(s.Code())
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "DEADLINE_EXCEEDED"
	case errors.Is(err, context.Canceled):
		return "CANCELLED"
	}
	return "CLIENT_ERROR"
}

// poolSampler reads the client's session pool figures by name (num_in_use_sessions, ...); nil where
// the client version exposes none in-process (startPoolStats, written per version by the installer).
var poolSampler func() map[string]int64
