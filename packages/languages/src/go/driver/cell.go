package main

// The cell the runner writes on stdin (packages/shared/src/protocol.ts DriverCell). The runner has
// already validated it with zod; this reads it, tolerating fields it does not know (the protocol
// may grow), and fails with a sentence on a missing or mistyped field, or on what this driver
// cannot run (an unknown load shape, operation kind or security).

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

type Cell struct {
	Endpoint      Endpoint      `json:"endpoint"`
	Database      Database      `json:"database"`
	Client        ClientVersion `json:"client"`
	Configuration Configuration `json:"configuration"`
	Load          Load          `json:"load"`
	Operations    []MixEntry    `json:"operations"`
	// A cost cap over both phases (real Spanner); nil: none.
	Cap *Cap `json:"cap"`
	// The driver exits by itself this many ms after it started.
	DeadlineMs float64 `json:"deadlineMs"`
}

// Endpoint is where the client connects. Security "plaintext" goes without credentials; "tls" uses
// the Application Default Credentials of the environment and, when TLSRootsFile (PEM; tests only) is
// set, trusts it in place of the system's CA bundle file (through SSL_CERT_FILE, which leaves the
// system's certificate directories trusted too).
type Endpoint struct {
	Host         string `json:"host"`
	Port         int    `json:"port"`
	Security     string `json:"security"`
	TLSRootsFile string `json:"tlsRootsFile"`
}

// Cap: no operation starts once Ops have started in all, nor Ms after the first one, nor once the
// client has created Sessions sessions (nil: not bounded).
type Cap struct {
	Ops      int64   `json:"ops"`
	Ms       float64 `json:"ms"`
	Sessions *int64  `json:"sessions"`
}

type Database struct {
	ProjectID  string `json:"projectId"`
	InstanceID string `json:"instanceId"`
	DatabaseID string `json:"databaseId"`
}

// Path is the database name the client takes.
func (d Database) Path() string {
	return fmt.Sprintf("projects/%s/instances/%s/databases/%s", d.ProjectID, d.InstanceID, d.DatabaseID)
}

// ClientVersion names the client under test; Module (cloud.google.com/go for the monorepo era) only
// appears in messages.
type ClientVersion struct {
	Language string `json:"language"`
	Version  string `json:"version"`
	Module   string `json:"module"`
}

// Configuration holds the client options (ConfigurationSchema in packages/shared/src/spec/spec.ts).
// A nil field is left out: the client version's default stays.
type Configuration struct {
	Label               string       `json:"label"`
	GrpcGcp             string       `json:"grpcGcp"`
	NumChannels         *int         `json:"numChannels"`
	DynamicChannelPool  *bool        `json:"dynamicChannelPool"`
	MultiplexedSessions *bool        `json:"multiplexedSessions"`
	SessionPool         *SessionPool `json:"sessionPool"`
}

type SessionPool struct {
	MinSessions           *uint64  `json:"minSessions"`
	MaxSessions           *uint64  `json:"maxSessions"`
	WriteSessionsFraction *float64 `json:"writeSessionsFraction"`
	MaxIdle               *uint64  `json:"maxIdle"`
}

func (p *SessionPool) empty() bool {
	return p == nil || (p.MinSessions == nil && p.MaxSessions == nil && p.WriteSessionsFraction == nil && p.MaxIdle == nil)
}

// Load is the load shape and its phase budgets: warmupOps operations, then the measured phase of
// measuredOps operations or durationMs (exactly one of the two). Concurrency is the closed shape's.
type Load struct {
	Shape       string     `json:"shape"`
	Concurrency int        `json:"concurrency"`
	ThinkTime   *ThinkTime `json:"thinkTime"`
	WarmupOps   int64      `json:"warmupOps"`
	MeasuredOps *int64     `json:"measuredOps"`
	DurationMs  *float64   `json:"durationMs"`
}

// ThinkTime is an agent's pause before each operation: Ms every time (fixed), or exponential with mean Ms.
type ThinkTime struct {
	Ms           float64 `json:"ms"`
	Distribution string  `json:"distribution"`
}

// MixEntry is one operation kind of the mix, picked with probability weight / sum of weights.
type MixEntry struct {
	Kind   string  `json:"kind"`
	Weight float64 `json:"weight"`
}

func parseCell(data []byte) (*Cell, error) {
	// Required fields are checked by name first, so a missing one reads as such and not as a zero.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, errors.New("the cell is not a JSON object")
	}
	for _, f := range []string{"endpoint", "database", "client", "configuration", "load", "operations", "deadlineMs"} {
		if isNull(raw[f]) {
			return nil, fmt.Errorf("missing field %s", f)
		}
	}
	nested := []struct {
		parent string
		fields []string
	}{
		{"endpoint", []string{"host", "port", "security"}},
		{"database", []string{"projectId", "instanceId", "databaseId"}},
		{"client", []string{"version"}},
		{"load", []string{"shape", "warmupOps"}},
	}
	for _, n := range nested {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw[n.parent], &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("field %s must be an object", n.parent)
		}
		for _, f := range n.fields {
			if isNull(obj[f]) {
				return nil, fmt.Errorf("missing field %s.%s", n.parent, f)
			}
		}
	}

	c := &Cell{}
	if err := json.Unmarshal(data, c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("field %s must be of type %s, not %s", te.Field, te.Type, te.Value)
		}
		return nil, err
	}
	if c.Endpoint.Security != "plaintext" && c.Endpoint.Security != "tls" {
		return nil, fmt.Errorf("unknown endpoint security %s (this driver knows: plaintext, tls)", c.Endpoint.Security)
	}
	if c.Cap != nil && (c.Cap.Ops < 1 || !(c.Cap.Ms > 0)) {
		return nil, errors.New("cap.ops and cap.ms must be positive")
	}
	if c.Configuration.GrpcGcp == "" {
		c.Configuration.GrpcGcp = "default"
	}
	switch c.Configuration.GrpcGcp {
	case "on", "off", "default":
	default:
		return nil, fmt.Errorf("configuration.grpcGcp must be on, off or default, not %s", c.Configuration.GrpcGcp)
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
	if t := l.ThinkTime; t != nil {
		if !(t.Ms >= 0) || math.IsInf(t.Ms, 0) {
			return errors.New("load.thinkTime.ms must be a number of at least 0")
		}
		if t.Distribution != "fixed" && t.Distribution != "exponential" {
			return fmt.Errorf("unknown load.thinkTime.distribution %s (this driver knows: exponential, fixed)", t.Distribution)
		}
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

func isNull(m json.RawMessage) bool {
	return len(m) == 0 || string(m) == "null"
}
