//go:build scb_json_number

package main

// The configuration's goJsonUseNumber (client.go): spanner.UseNumberWithJSONDecoderEncoder, in
// cloud.google.com/go/spanner from v1.54.0 (google-cloud-go PR #9054, for issue #8669); install.ts
// passes the scb_json_number tag to versions that have it.

import "cloud.google.com/go/spanner"

func init() { useJSONNumber = spanner.UseNumberWithJSONDecoderEncoder }
