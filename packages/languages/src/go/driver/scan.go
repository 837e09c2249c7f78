package main

// The `scan` operation: a single-use query whose result has the job's shape (the cell's resultSet),
// every row read, the columns its `read` names decoded into the client's own Go types with
// row.Column and folded into each column's checksum as packages/shared/src/result-set/values.ts
// defines it (the Node driver's scan.ts does the same). A checksum or a row count other than the
// result's ends the driver (exit 5) with one sentence naming the column and its type.
//
// NUMERIC, JSON, FLOAT32 and UUID came to the client after its oldest versions built here: their
// decoders are in scan_numeric.go, scan_json.go, scan_float32.go and scan_uuid.go, built (install.ts,
// scanBuildTags) only for versions that have spanner.NullNumeric, NullJSON, NullFloat32 and NullUUID. Without one, a column of that
// type is refused before the client connects (exit 4), not a build failure.

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf16"

	"cloud.google.com/go/spanner"
)

// The checksum: 32-bit FNV-1a over units, the marker units past the last code point.
const (
	checksumStart uint32 = 0x811c9dc5
	unitEnd       uint32 = 0x110000
	unitNull      uint32 = 0x110001
	unitOpen      uint32 = 0x110002
	unitClose     uint32 = 0x110003
)

func fold(h, unit uint32) uint32 { return (h ^ unit) * 16777619 }

// foldText folds a text's UTF-16 code units (its code points, for the BMP text the result holds).
func foldText(h uint32, t string) uint32 {
	for _, r := range t {
		if r1, r2 := utf16.EncodeRune(r); r1 != '\uFFFD' {
			h = fold(fold(h, uint32(r1)), uint32(r2))
		} else {
			h = fold(h, uint32(r))
		}
	}
	return h
}

// A columnDecoder reads column i of a row and folds its value into h.
type columnDecoder func(row *spanner.Row, i int, h uint32) (uint32, error)

// columnType decodes one scalar type, alone or as an ARRAY's elements.
type columnType struct{ scalar, array columnDecoder }

// typeOf is the columnType of a scalar the client decodes into T (its NULL too); units folds a
// non-NULL value's units and says whether it was non-NULL. An ARRAY decodes into []T, nil when NULL.
func typeOf[T any](units func(h uint32, v T) (uint32, bool)) columnType {
	value := func(h uint32, v T) uint32 {
		if u, ok := units(h, v); ok {
			return fold(u, unitEnd)
		}
		return fold(h, unitNull)
	}
	return columnType{
		scalar: func(row *spanner.Row, i int, h uint32) (uint32, error) {
			var v T
			if err := row.Column(i, &v); err != nil {
				return h, err
			}
			return value(h, v), nil
		},
		array: func(row *spanner.Row, i int, h uint32) (uint32, error) {
			var vs []T
			if err := row.Column(i, &vs); err != nil {
				return h, err
			}
			if vs == nil {
				return fold(h, unitNull), nil
			}
			h = fold(h, unitOpen)
			for _, v := range vs {
				h = value(h, v)
			}
			return fold(h, unitClose), nil
		},
	}
}

// textType is typeOf for the types that fold their canonical text: text gives it and whether the
// value is non-NULL.
func textType[T any](text func(v T) (string, bool)) columnType {
	return typeOf(func(h uint32, v T) (uint32, bool) {
		t, ok := text(v)
		return foldText(h, t), ok
	})
}

// columnTypes holds a decoder for each type code; the scan_*.go files add the later ones.
var columnTypes = map[string]columnType{
	"BOOL":  textType(func(v spanner.NullBool) (string, bool) { return strconv.FormatBool(v.Bool), v.Valid }),
	"INT64": textType(func(v spanner.NullInt64) (string, bool) { return strconv.FormatInt(v.Int64, 10), v.Valid }),
	"FLOAT64": textType(func(v spanner.NullFloat64) (string, bool) {
		if math.IsNaN(v.Float64) {
			return "NaN", v.Valid
		}
		return fmt.Sprintf("%016x", math.Float64bits(v.Float64)), v.Valid
	}),
	"STRING": typeOf(func(h uint32, v spanner.NullString) (uint32, bool) { return foldText(h, v.StringVal), v.Valid }),
	"BYTES": typeOf(func(h uint32, v []byte) (uint32, bool) {
		for _, b := range v {
			h = fold(h, uint32(b))
		}
		return h, v != nil
	}),
	"DATE": textType(func(v spanner.NullDate) (string, bool) { return v.Date.String(), v.Valid }),
	"TIMESTAMP": textType(func(v spanner.NullTime) (string, bool) {
		return fmt.Sprintf("%d.%09d", v.Time.Unix(), v.Time.Nanosecond()), v.Valid
	}),
}

// The Go type each later type decodes into, and the version that brought it (its CHANGES.md), for
// the refusal.
var laterTypes = map[string]struct{ goType, since string }{
	"NUMERIC": {"spanner.NullNumeric", "cloud.google.com/go/spanner v1.10.0"},
	"JSON":    {"spanner.NullJSON", "cloud.google.com/go/spanner v1.25.0"},
	"FLOAT32": {"spanner.NullFloat32", "cloud.google.com/go/spanner v1.59.0"},
	"UUID":    {"spanner.NullUUID", "cloud.google.com/go/spanner v1.81.0"},
}

func (c ScanColumn) typeName() string {
	if c.Array {
		return "ARRAY<" + c.Type + ">"
	}
	return c.Type
}

// decoded is how many columns of each row the application decodes: all, the first, or none.
func (q *ScanQuery) decoded() []ScanColumn {
	switch q.Read {
	case "all":
		return q.Columns
	case "first":
		return q.Columns[:min(1, len(q.Columns))]
	}
	return nil
}

// checkScan refuses, before the client connects, a scan whose decoded columns include a type this
// client version has no Go type for.
func checkScan(cell *DriverCell) error {
	if cell.ResultSet == nil {
		return nil
	}
	for _, c := range cell.ResultSet.decoded() {
		if _, ok := columnTypes[c.Type]; !ok {
			later := laterTypes[c.Type]
			return unsupported(cell, "workload.resultSet "+c.typeName(), fmt.Sprintf("it has no %s to decode column %s into (it came in %s)", later.goType, c.Name, later.since))
		}
	}
	return nil
}

// mismatch ends the driver: a value decoded wrong is a failed cell, whatever the rest measures.
func mismatch(format string, args ...interface{}) {
	fail(fmt.Sprintf(format, args...), exitMismatch)
}

// scan is the operation: the query, each row read, the decoded columns checked at the end.
func scan(c *spanner.Client, q *ScanQuery) Operation {
	columns := q.decoded()
	decoders := make([]columnDecoder, len(columns))
	for i, col := range columns {
		if col.Array {
			decoders[i] = columnTypes[col.Type].array
		} else {
			decoders[i] = columnTypes[col.Type].scalar
		}
	}
	stmt := spanner.Statement{SQL: q.Sql}
	return func(ctx context.Context) error {
		t0 := time.Now()
		var first, last time.Duration
		sums := make([]uint32, len(columns))
		for i := range sums {
			sums[i] = checksumStart
		}
		var rows int64
		err := c.Single().Query(ctx, stmt).Do(func(row *spanner.Row) error {
			rows++
			if rows == 1 {
				first = time.Since(t0)
			}
			for i, decode := range decoders {
				var err error
				if sums[i], err = decode(row, i, sums[i]); err != nil {
					mismatch("scan: column %s (%s) could not be decoded in row %d: %v (read %s, %d rows)", columns[i].Name, columns[i].typeName(), rows, err, q.Read, q.Rows)
				}
			}
			// The result's last row read (a count other than the result's fails below): no clock read per row.
			if rows == q.Rows {
				last = time.Since(t0)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if rows != q.Rows {
			mismatch("scan: %d rows decoded, the result has %d", rows, q.Rows)
		}
		for i, col := range columns {
			if want := uint32(col.Checksum); sums[i] != want {
				mismatch("scan: column %s (%s) decoded to values whose checksum is %x, the result's is %x (read %s, %d rows)", col.Name, col.typeName(), sums[i], want, q.Read, q.Rows)
			}
		}
		// To the running phase's recorder (servertiming.go keeps it), for the kind the load loop runs.
		if k, ok := ctx.Value(timingKindKey{}).(int); ok {
			if rec := timingPhase.Load(); rec != nil {
				rec.rowTimes(k, first, last)
			}
		}
		return nil
	}
}
