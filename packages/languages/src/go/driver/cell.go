package main

// The cell the runner writes on stdin: its types and their reader, parseDriverCell, are generated from
// packages/shared/src/protocol.ts (protocol_gen.go: `npm run generate:contract`). The runner has
// already validated it with zod; the reader fails on a missing or mistyped field, and this refuses
// what this driver cannot run (an unknown load shape or operation kind) and values it could not use,
// each with a sentence.

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Path is the database name the client takes.
func (d Database) Path() string {
	return fmt.Sprintf("projects/%s/instances/%s/databases/%s", d.ProjectID, d.InstanceID, d.DatabaseID)
}

func (p *SessionPool) empty() bool {
	return p == nil || (p.MinSessions == nil && p.MaxSessions == nil && p.WriteSessionsFraction == nil && p.MaxIdle == nil && p.TrackSessionHandles == nil)
}

func parseCell(data []byte) (*DriverCell, error) {
	c, err := parseDriverCell(data)
	if err != nil {
		return nil, err
	}
	if c.Cap != nil && (c.Cap.Ops < 1 || !(c.Cap.Ms > 0)) {
		return nil, errors.New("cap.ops and cap.ms must be positive")
	}
	if c.DeadlineMs <= 0 || math.IsInf(c.DeadlineMs, 0) {
		return nil, errors.New("deadlineMs must be a positive number")
	}
	if err := c.Load.validate(); err != nil {
		return nil, err
	}
	if len(c.Operations) == 0 {
		return nil, errors.New("operations must list at least one operation kind")
	}
	for _, m := range c.Operations {
		if _, ok := operations[m.Kind]; !ok {
			return nil, fmt.Errorf("unknown operation kind %s (this driver knows: %s)", m.Kind, strings.Join(operationKinds(), ", "))
		}
		if m.Kind == "scan" && c.ResultSet == nil {
			return nil, errors.New("operation scan needs resultSet")
		}
		if !(m.Weight > 0) || math.IsInf(m.Weight, 0) {
			return nil, fmt.Errorf("the weight of operation %s must be a positive number", m.Kind)
		}
	}
	return c, nil
}

func (l Load) validate() error {
	if (l.MeasuredOps == nil) == (l.DurationMs == nil) {
		return errors.New("give exactly one of load.measuredOps or load.durationMs")
	}
	if l.MeasuredOps != nil && *l.MeasuredOps < 1 {
		return errors.New("load.measuredOps must be at least 1")
	}
	if l.DurationMs != nil && !(*l.DurationMs > 0) {
		return errors.New("load.durationMs must be positive")
	}
	if l.WarmupOps < 0 {
		return errors.New("load.warmupOps must not be negative")
	}
	if t := l.ThinkTime; t != nil && (!(t.Ms >= 0) || math.IsInf(t.Ms, 0)) {
		return errors.New("load.thinkTime.ms must be a number of at least 0")
	}
	if _, ok := shapes[l.Shape]; !ok {
		known := make([]string, 0, len(shapes))
		for s := range shapes {
			known = append(known, s)
		}
		sort.Strings(known)
		return fmt.Errorf("unknown load shape %s (this driver knows: %s)", l.Shape, strings.Join(known, ", "))
	}
	return shapes[l.Shape].validate(l)
}
