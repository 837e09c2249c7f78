//go:build scb_uuid

package main

// UUID for the scan (scan.go): built only for client versions with spanner.NullUUID
// (cloud.google.com/go/spanner v1.81.0 on; install.ts passes the scb_uuid tag).

import "cloud.google.com/go/spanner"

func init() {
	// uuid.UUID's String is the canonical lower-case 8-4-4-4-12 form.
	columnTypes["UUID"] = textType(func(v spanner.NullUUID) (string, bool) { return v.UUID.String(), v.Valid })
}
