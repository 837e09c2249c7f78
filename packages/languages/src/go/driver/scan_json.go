//go:build scb_json

package main

// JSON for the scan (scan.go): built only for client versions with spanner.NullJSON
// (cloud.google.com/go/spanner v1.25.0 on; install.ts passes the scb_json tag).

import (
	"encoding/json"

	"cloud.google.com/go/spanner"
)

func init() {
	// The compact text, keys sorted (encoding/json sorts a map's). A value that does not encode again
	// folds as its error's text: a mismatch, as it should be.
	columnTypes["JSON"] = textType(func(v spanner.NullJSON) (string, bool) {
		b, err := json.Marshal(v.Value)
		if err != nil {
			return err.Error(), v.Valid
		}
		return string(b), v.Valid
	})
}
