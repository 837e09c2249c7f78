package main

// How each operation kind of the protocol (OPERATIONS in packages/shared/src/spec/spec.ts) runs on
// a Go spanner.Client: one entry per kind, so adding an operation is adding an entry.

import (
	"context"
	"math/rand"
	"sort"

	"cloud.google.com/go/spanner"
)

// Operation runs one operation: returns when it is done, an error when it failed.
type Operation func(ctx context.Context) error

// The statements and data are the catalogue's (contract_gen.go): the fake knows them by text.
var select1 = spanner.Statement{SQL: sqlSelect1}

func playerID() int64 { return 1 + rand.Int63n(players) }

func drain(*spanner.Row) error { return nil }

// Each kind's factory gets the client and the cell (the scan reads its resultSet).
var operations = map[string]func(c *spanner.Client, cell *DriverCell) Operation{
	// A single-use read-only query, every row read (Do reads to the end, then stops the iterator).
	"select1": func(c *spanner.Client, _ *DriverCell) Operation {
		return func(ctx context.Context) error {
			return c.Single().Query(ctx, select1).Do(drain)
		}
	},
	// A read-only transaction running the leaderboard query.
	"readOnlyTxn": func(c *spanner.Client, _ *DriverCell) Operation {
		return func(ctx context.Context) error {
			tx := c.ReadOnlyTransaction()
			defer tx.Close()
			return tx.Query(ctx, spanner.Statement{SQL: sqlLeaderboard, Params: map[string]interface{}{"Id": playerID()}}).Do(drain)
		}
	},
	// A read-write transaction: read the player (a streaming query, what an abort hits), insert a score
	// with the commit timestamp, commit. The client retries it whole when it is aborted.
	"readWriteTxn": func(c *spanner.Client, _ *DriverCell) Operation {
		return func(ctx context.Context) error {
			_, err := c.ReadWriteTransaction(ctx, func(ctx context.Context, tx *spanner.ReadWriteTransaction) error {
				id := playerID()
				if err := tx.Query(ctx, spanner.Statement{SQL: sqlPlayer, Params: map[string]interface{}{"playerId": id}}).Do(drain); err != nil {
					return err
				}
				_, err := tx.Update(ctx, spanner.Statement{SQL: sqlInsertScore, Params: map[string]interface{}{"playerId": id, "score": rand.Int63n(100000)}})
				return err
			})
			return err
		}
	},
	// A single-use read of one Players row by key.
	"pointRead": func(c *spanner.Client, _ *DriverCell) Operation {
		return func(ctx context.Context) error {
			_, err := c.Single().ReadRow(ctx, "Players", spanner.Key{playerID()}, playerColumns)
			return err
		}
	},
	// A single-use query whose result has the job's shape, read and checked as the cell's resultSet
	// says (scan.go).
	"scan": func(c *spanner.Client, cell *DriverCell) Operation { return scan(c, cell.ResultSet) },
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
