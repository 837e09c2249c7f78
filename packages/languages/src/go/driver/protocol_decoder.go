package main

// The decoding the generated readers of protocol_gen.go build on (scripts/contract.ts writes those, not
// this file): JSON values into the protocol's types, the first error kept with the field it names.

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// protocolDecoder reads JSON values into the types above and keeps the first error; once it has one,
// every method does nothing.
type protocolDecoder struct{ err error }

func (d *protocolDecoder) mustBe(path, what string) {
	name := "field " + path
	if path == "" {
		name = "the JSON value"
	}
	d.err = fmt.Errorf("%s must be %s", name, what)
}

func (d *protocolDecoder) object(raw json.RawMessage, path string) map[string]json.RawMessage {
	var o map[string]json.RawMessage
	if d.err == nil && (json.Unmarshal(raw, &o) != nil || o == nil) {
		d.mustBe(path, "an object")
	}
	return o
}

// field is the value of o's field name, nil when it is absent or null (an error if it is required),
// and the field's path.
func (d *protocolDecoder) field(o map[string]json.RawMessage, path, name string, required bool) (json.RawMessage, string) {
	v := o[name]
	if path != "" {
		name = path + "." + name
	}
	if d.err != nil || len(v) == 0 || string(v) == "null" {
		if d.err == nil && required {
			d.err = fmt.Errorf("missing field %s", name)
		}
		return nil, name
	}
	return v, name
}

func (d *protocolDecoder) str(raw json.RawMessage, path string) string {
	var s string
	if d.err == nil && json.Unmarshal(raw, &s) != nil {
		d.mustBe(path, "a string")
	}
	return s
}

func (d *protocolDecoder) oneOf(path, v string, values ...string) string {
	if d.err != nil {
		return v
	}
	for _, known := range values {
		if v == known {
			return v
		}
	}
	d.mustBe(path, fmt.Sprintf("one of %s, not %q", strings.Join(values, ", "), v))
	return v
}

func (d *protocolDecoder) number(raw json.RawMessage, path string) float64 {
	var f float64
	if d.err == nil && json.Unmarshal(raw, &f) != nil {
		d.mustBe(path, "a number")
	}
	return f
}

// integer is a number without a fraction that JSON's readers all hold exactly (at most 2^53 - 1 either way).
func (d *protocolDecoder) integer(raw json.RawMessage, path string) int64 {
	f := d.number(raw, path)
	if d.err == nil && (f != math.Trunc(f) || math.Abs(f) > 1<<53-1) {
		d.mustBe(path, "an integer")
	}
	return int64(f)
}

func (d *protocolDecoder) integer32(raw json.RawMessage, path string) int {
	n := d.integer(raw, path)
	if d.err == nil && (n < math.MinInt32 || n > math.MaxInt32) {
		d.mustBe(path, "an integer of 32 bits")
	}
	return int(n)
}

func (d *protocolDecoder) boolean(raw json.RawMessage, path string) bool {
	var b bool
	if d.err == nil && json.Unmarshal(raw, &b) != nil {
		d.mustBe(path, "true or false")
	}
	return b
}

func (d *protocolDecoder) array(raw json.RawMessage, path string) []json.RawMessage {
	var a []json.RawMessage
	if d.err == nil && (json.Unmarshal(raw, &a) != nil || a == nil) {
		d.mustBe(path, "an array")
	}
	return a
}
