package main

// How each operation kind of the protocol (OPERATIONS in packages/shared/src/spec/spec.ts) runs on
// a Go spanner.Client: one entry per kind, so adding an operation is adding an entry.

import (
	"context"
	"sort"

	"cloud.google.com/go/spanner"
)

// Operation runs one operation: returns when it is done, an error when it failed.
type Operation func(ctx context.Context) error

var select1 = spanner.Statement{SQL: "SELECT 1"}

var operations = map[string]func(c *spanner.Client) Operation{
	// A single-use read-only query, every row read (Do reads to the end, then stops the iterator).
	"select1": func(c *spanner.Client) Operation {
		return func(ctx context.Context) error {
			return c.Single().Query(ctx, select1).Do(func(*spanner.Row) error { return nil })
		}
	},
}

// operationKinds lists the kinds this driver runs, sorted.
func operationKinds() []string {
	kinds := make([]string, 0, len(operations))
	for k := range operations {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}
