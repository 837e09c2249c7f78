package main

// The warm-up and measured phases of a cell, as load.ts does them for Node and LoadLoop.java for
// Java: the cell's load shape issues operations until the phase's budget (an operation count or a
// duration) is used up; each one is picked from the weighted operation mix and recorded.

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Shape is a load shape: how operations are issued until a phase's budget is used up. take claims
// one operation of the budget and is false once it is spent; runOne runs one operation of the mix
// and records it, its latency counted from intended (an open loop's arrival; zero: from its start).
type Shape interface {
	// Run issues operations while take grants them; returns once every issued operation is done.
	Run(take func() bool, runOne func(intended time.Time), untilEnd func() time.Duration, rec *recorder)
}

// One entry per shape of the protocol (LoadSchema in packages/shared/src/protocol.ts).
var shapes = map[string]struct {
	validate func(Load) error
	make     func(Load) Shape
}{
	"closed": {
		validate: func(l Load) error {
			if l.Concurrency == nil || *l.Concurrency < 1 {
				return errors.New("load.concurrency must be at least 1")
			}
			return nil
		},
		make: func(l Load) Shape { return closedShape{concurrency: int(*l.Concurrency), think: thinker(l.ThinkTime)} },
	},
	"open": {
		validate: func(l Load) error {
			if l.RatePerSecond == nil || *l.RatePerSecond <= 0 {
				return errors.New("load.ratePerSecond must be above 0")
			}
			if l.MaxOutstanding == nil || *l.MaxOutstanding < 1 {
				return errors.New("load.maxOutstanding must be at least 1")
			}
			return nil
		},
		make: func(l Load) Shape {
			return openShape{gap: arrivalGap(*l.RatePerSecond, *l.Distribution), maxOutstanding: int(*l.MaxOutstanding)}
		},
	},
}

// closedShape is `concurrency` agents, each claiming an operation, thinking, then running it.
type closedShape struct {
	concurrency int
	think       func() time.Duration
}

// thinker is an agent's pause before each operation: fixed, or exponential with that mean.
func thinker(t *ThinkTime) func() time.Duration {
	if t == nil || t.Ms <= 0 {
		return func() time.Duration { return 0 }
	}
	mean := time.Duration(t.Ms * float64(time.Millisecond))
	if t.Distribution == "fixed" {
		return func() time.Duration { return mean }
	}
	return func() time.Duration { return time.Duration(rand.ExpFloat64() * float64(mean)) }
}

func (s closedShape) Run(take func() bool, runOne func(time.Time), untilEnd func() time.Duration, _ *recorder) {
	// Every loop waits at a gate and they start together: a cold client's first traffic is one
	// burst at the target concurrency (as the Java driver does).
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	ready.Add(s.concurrency)
	done.Add(s.concurrency)
	for i := 0; i < s.concurrency; i++ {
		go func() {
			defer done.Done()
			ready.Done()
			<-gate
			for take() {
				// A think time past a timed phase's end is cut there and its operation not run.
				d, left := s.think(), untilEnd()
				if d >= left {
					if left > 0 {
						time.Sleep(left)
					}
					break
				}
				if d > 0 {
					time.Sleep(d)
				}
				runOne(time.Time{})
			}
		}()
	}
	ready.Wait()
	close(gate)
	done.Wait()
}

// openShape is operations arriving on a schedule drawn ahead (the next arrival never depends on how
// the last went): each starts at its time in a goroutine of its own, or waits in line while
// maxOutstanding run; a goroutine that ends takes the next in line.
type openShape struct {
	gap            func() time.Duration
	maxOutstanding int
}

// arrivalGap is the time to an open loop's next arrival: exponential (Poisson arrivals) or fixed.
func arrivalGap(ratePerSecond float64, distribution string) func() time.Duration {
	mean := float64(time.Second) / ratePerSecond
	if distribution == "uniform" {
		return func() time.Duration { return time.Duration(mean) }
	}
	return func() time.Duration { return time.Duration(rand.ExpFloat64() * mean) }
}

func (s openShape) Run(take func() bool, runOne func(time.Time), untilEnd func() time.Duration, rec *recorder) {
	var (
		mu          sync.Mutex
		line        []time.Time
		outstanding int
		done        sync.WaitGroup
	)
	run := func(intended time.Time) {
		defer done.Done()
		for {
			runOne(intended)
			mu.Lock()
			if len(line) == 0 {
				outstanding--
				mu.Unlock()
				return
			}
			intended, line = line[0], line[1:]
			rec.waiting(len(line), false)
			mu.Unlock()
		}
	}
	left := untilEnd()
	timed := left < time.Duration(math.MaxInt64/2)
	next := time.Now()
	end := next.Add(min(left, 1000*time.Hour))
	for {
		if timed && !next.Before(end) {
			break
		}
		preciseSleep(time.Until(next))
		if !take() {
			break
		}
		mu.Lock()
		if outstanding < s.maxOutstanding {
			outstanding++
			mu.Unlock()
			rec.late(time.Since(next))
			done.Add(1)
			go run(next)
		} else {
			line = append(line, next)
			rec.waiting(len(line), true)
			mu.Unlock()
		}
		next = next.Add(s.gap())
	}
	done.Wait()
}

// preciseSleep sleeps d on the OS thread: the runtime's timers wake up to a millisecond late (measured:
// 0.5 ms median with go1.26 on Linux), nanosleep within about 0.1 ms, and the lag is what an open loop
// must keep small.
func preciseSleep(d time.Duration) {
	if d <= 0 {
		return
	}
	ts := syscall.NsecToTimespec(int64(d))
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
}

// mix picks operation kinds with probability weight / total weight.
type mix struct {
	kinds     []string // the distinct kinds, in mix order
	weights   []float64
	entryKind []int // per mix entry: the index of its kind in kinds
	total     float64
}

func newMix(entries []OperationMixEntry) *mix {
	m := &mix{}
	index := map[string]int{}
	for _, e := range entries {
		k, ok := index[e.Kind]
		if !ok {
			k = len(m.kinds)
			index[e.Kind] = k
			m.kinds = append(m.kinds, e.Kind)
		}
		m.weights = append(m.weights, e.Weight)
		m.entryKind = append(m.entryKind, k)
		m.total += e.Weight
	}
	return m
}

// pick returns the index of a kind (math/rand's global source is safe for concurrent use).
func (m *mix) pick() int {
	if len(m.entryKind) == 1 {
		return m.entryKind[0]
	}
	r := rand.Float64() * m.total
	for i, w := range m.weights {
		if r -= w; r < 0 {
			return m.entryKind[i]
		}
	}
	return m.entryKind[len(m.entryKind)-1]
}

type loadRunner struct {
	shape Shape
	open  bool // the shape is open: the recorder keeps uncorrected latencies and the schedule's lag
	mix   *mix
	ops   []Operation // per kind of mix.kinds
	out   *output
	cap   *costCap
}

// costCap is the cell's cost cap over both phases: operations started in all, time since the start,
// sessions created.
type costCap struct {
	limit   *Cap
	started atomic.Int64
	t0      time.Time
	mu      sync.Mutex
	hit     string // "ops", "time" or "sessions" once the cap stopped the cell
}

func newCostCap(limit *Cap) *costCap { return &costCap{limit: limit, t0: time.Now()} }

// take claims one operation of the cap; false once it is reached.
func (c *costCap) take() bool {
	if c.limit == nil {
		return true
	}
	reason := ""
	if c.started.Add(1) > c.limit.Ops {
		reason = "ops"
	} else if sinceMs(c.t0) >= c.limit.Ms {
		reason = "time"
	} else if c.limit.Sessions != nil && sessionsCreated.Load() >= *c.limit.Sessions {
		reason = "sessions"
	} else {
		return true
	}
	c.mu.Lock()
	if c.hit == "" {
		c.hit = reason
	}
	c.mu.Unlock()
	return false
}

// run runs the warm-up operations, then the measured phase, and returns the result message.
func (r *loadRunner) run(load Load) *ResultMessage {
	if load.WarmupOps > 0 {
		r.phase("warmup", &load.WarmupOps, nil)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	result := r.phase("measure", load.MeasuredOps, load.DurationMs)
	runtime.ReadMemStats(&m1)
	gcMs := float64(m1.PauseTotalNs-m0.PauseTotalNs) / 1e6
	result.GcMs = &gcMs
	if peak := peakRSSBytes(); peak > 0 {
		result.PeakRssBytes = &peak
	}
	r.cap.mu.Lock()
	if hit := r.cap.hit; hit != "" {
		result.Capped = &hit
	}
	r.cap.mu.Unlock()
	created := sessionsCreated.Load()
	result.SessionsCreated = &created
	return result
}

// phase runs until ops operations have been issued or, without ops, for ms milliseconds.
func (r *loadRunner) phase(name string, ops *int64, ms *float64) *ResultMessage {
	measured := name == "measure"
	rec := newRecorder(name, measured, r.mix.kinds, r.open)
	timingPhase.Store(rec)
	t0 := time.Now()
	cpu0 := processCPU()
	var started atomic.Int64
	var end time.Time
	if ms != nil {
		end = t0.Add(time.Duration(*ms * float64(time.Millisecond)))
	}
	take := func() bool {
		budget := time.Now().Before(end)
		if ops != nil {
			budget = started.Add(1) <= *ops
		}
		return budget && r.cap.take()
	}
	ctx := context.Background()
	runOne := func(intended time.Time) {
		k := r.mix.pick()
		s := time.Now()
		if intended.IsZero() {
			intended = s
		}
		if err := r.ops[k](withKind(ctx, k)); err != nil {
			rec.failure(k, err)
		} else {
			e := time.Now()
			rec.success(k, e.Sub(intended), e.Sub(s))
		}
	}
	progress := func() { r.out.progress(name, rec.doneCount(), ops, sinceMs(t0)) }

	progress()
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				rec.closeSecond(false)
				progress()
			case <-stop:
				return
			}
		}
	}()
	untilEnd := func() time.Duration {
		if ms == nil {
			return time.Duration(math.MaxInt64)
		}
		return time.Until(end)
	}
	r.shape.Run(take, runOne, untilEnd, rec)
	close(stop)
	<-stopped
	elapsedMs := sinceMs(t0)
	rec.closeSecond(true)
	cpu := processCPU() - cpu0
	progress()
	if !measured {
		return nil
	}
	return rec.result(elapsedMs, float64(cpu)/1e6)
}

func sinceMs(t time.Time) float64 { return float64(time.Since(t)) / 1e6 }

// processCPU is the CPU time of the whole process (every thread, the client's included).
// peakRSSBytes is the process's peak resident memory (getrusage's maxrss, kilobytes on Linux), 0 where unknown.
func peakRSSBytes() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return float64(u.Maxrss) * 1024
}

func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
