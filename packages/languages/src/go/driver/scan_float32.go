//go:build scb_float32

package main

// FLOAT32 for the scan (scan.go): built only for client versions with spanner.NullFloat32
// (cloud.google.com/go/spanner v1.59.0 on; install.ts passes the scb_float32 tag).

import (
	"fmt"
	"math"

	"cloud.google.com/go/spanner"
)

func init() {
	columnTypes["FLOAT32"] = textType(func(v spanner.NullFloat32) (string, bool) {
		if math.IsNaN(float64(v.Float32)) {
			return "NaN", v.Valid
		}
		return fmt.Sprintf("%08x", math.Float32bits(v.Float32)), v.Valid
	})
}
