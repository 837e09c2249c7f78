package main

// The protocol's JSON lines (their types are protocol_gen.go's). They go to the real stdout; os.Stdout
// is pointed at stderr so that nothing a library prints with fmt.Print can break a line the runner parses.

import (
	"encoding/json"
	"math"
	"os"
	"sync"
)

type output struct {
	mu  sync.Mutex
	out *os.File
}

func newOutput() *output {
	o := &output{out: os.Stdout}
	os.Stdout = os.Stderr
	return o
}

// emit writes one message as one line, in one write; lines from the ticker and the main goroutine
// never mix.
func (o *output) emit(message any) {
	b, err := json.Marshal(message)
	if err != nil {
		fail("driver: cannot encode a message: "+err.Error(), exitFailed)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.out.Write(append(b, '\n'))
}

func (o *output) progress(phase string, done int64, total *int64, elapsedMs float64) {
	qps := float64(done) * 1000 / math.Max(1, elapsedMs)
	m := ProgressMessage{Type: "progress", Phase: phase, Done: float64(done), ElapsedMs: round3(elapsedMs), Qps: round3(qps)}
	if total != nil {
		t := float64(*total)
		m.Total = &t
	}
	o.emit(m)
}

// round3 keeps three decimals: plenty, and short lines.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
