//go:build scb_numeric

package main

// NUMERIC for the scan (scan.go): built only for client versions with spanner.NullNumeric
// (cloud.google.com/go/spanner v1.10.0 on; install.ts passes the scb_numeric tag).

import (
	"strings"

	"cloud.google.com/go/spanner"
)

func init() {
	// The decimal without trailing fraction zeros: NUMERIC has at most 9 fraction digits.
	columnTypes["NUMERIC"] = textType(func(v spanner.NullNumeric) (string, bool) {
		return strings.TrimSuffix(strings.TrimRight(v.Numeric.FloatString(9), "0"), "."), v.Valid
	})
}
