// The Go driver: one process, one fresh cloud.google.com/go/spanner client, one cell
// (docs/architecture.md, "Driver protocol"). Reads the cell as JSON on stdin, writes JSON lines on
// stdout, exits by itself. Exit codes: 0 done, 2 failed, 3 deadline reached, 4 option not supported
// by this client version, 5 a scan decoded values other than the result's (scan.go). The last stderr
// line is the sentence the user reads on a failed cell.
//
// Built per client version in a module of its own (go mod init; go get <client>@<version>; go mod
// tidy; go build): standard library and the client's own dependencies only.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"cloud.google.com/go/spanner"
)

const (
	exitFailed      = 2
	exitDeadline    = 3
	exitUnsupported = 4
	exitMismatch    = 5
)

// The deadline counts from process start, like the runner's clock for this process.
var processStart = time.Now()

func main() {
	out := newOutput()
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail("driver: cannot read the cell spec: "+err.Error(), exitFailed)
	}
	cell, err := parseCell(data)
	if err != nil {
		fail("driver: bad cell spec: "+err.Error(), exitFailed)
	}
	left := time.Duration(cell.DeadlineMs*float64(time.Millisecond)) - time.Since(processStart)
	time.AfterFunc(max(left, 0), func() {
		fail(fmt.Sprintf("driver: deadline of %d ms reached before the cell finished", int64(cell.DeadlineMs)), exitDeadline)
	})
	if err := run(cell, out); err != nil {
		var u *unsupportedOption
		if errors.As(err, &u) {
			fail(u.Error(), exitUnsupported)
		}
		fail("driver: the cell failed: "+err.Error(), exitFailed)
	}
	os.Exit(0)
}

func run(cell *DriverCell, out *output) error {
	if err := checkScan(cell); err != nil {
		return err
	}
	setup, err := setupClient(cell)
	if err != nil {
		return err
	}
	t0 := time.Now()
	connecting := func() { out.progress("connecting", 0, nil, sinceMs(t0)) }
	connecting()
	// Client start may take a while: keep reporting.
	ticker := time.NewTicker(time.Second)
	stopTicks := make(chan struct{})
	go func() {
		for {
			select {
			case <-ticker.C:
				connecting()
			case <-stopTicks:
				return
			}
		}
	}()
	// Registered before the client exists, so the pool's first figures are kept.
	if poolSampler, err = startPoolStats(); err != nil {
		return err
	}
	client, err := newClient(context.Background(), cell, setup)
	ticker.Stop()
	close(stopTicks)
	if err != nil {
		return err
	}

	m := newMix(cell.Operations)
	ops := make([]Operation, len(m.kinds))
	for k, kind := range m.kinds {
		ops[k] = withDeadline(operations[kind](client, cell), cell.Configuration.OperationTimeoutMs)
	}
	runner := &loadRunner{shape: shapes[cell.Load.Shape].make(cell.Load), open: cell.Load.Shape == "open", mix: m, ops: ops, out: out, cap: newCostCap(cell.Cap)}
	out.emit(runner.run(cell.Load))
	closeClient(client)
	return nil
}

// closeClient waits for the client to close its sessions and channels, but not for long: the
// result is out.
func closeClient(c *spanner.Client) {
	closed := make(chan struct{})
	go func() {
		c.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(3 * time.Second):
	}
}

// failing lets one failure write its sentence: another goroutine's waits for the exit.
var failing sync.Mutex

// fail writes the sentence the runner shows as the last stderr line, then leaves at once.
func fail(message string, code int) {
	failing.Lock()
	fmt.Fprintln(os.Stderr, message)
	os.Exit(code)
}

// withDeadline gives each operation its own context deadline, as an application's request timeout does.
func withDeadline(op Operation, ms *float64) Operation {
	if ms == nil {
		return op
	}
	d := time.Duration(*ms * float64(time.Millisecond))
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return op(ctx)
	}
}
