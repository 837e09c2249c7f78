// The Go sources a client version needs written for it, beside the driver's own (driver/*.go): one
// source cannot name what only some versions have, so the installer asks `go doc` and writes what
// compiles. The Go installer (install.ts) hashes this file's text into the driver's build key: an edit here
// builds every Go driver again.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export type GoCommand = (args: string[], timeoutMin: number) => Promise<unknown>;

/** Whether this version's spanner package exports `name` (one driver source cannot name what only some versions have). */
function hasSymbol(go: GoCommand, name: string): Promise<boolean> {
  return go(['doc', 'cloud.google.com/go/spanner', name], 2).then(
    () => true,
    (e: { stderr?: string }) => {
      if (new RegExp(`no symbol ${name}`).test(e.stderr ?? '')) return false;
      throw e;
    },
  );
}

/**
 * newClientDefaults for this version: what spanner.NewClient starts from, so that options a cell
 * leaves out keep their defaults. v1.x has DefaultSessionPoolConfig (a zero pool config is not the
 * default: v1.33.0 would open no sessions up front and use only some channels); the monorepo era has
 * no such variable and its NewClient uses the zero config. One source cannot name a variable only
 * some versions have, so the installer asks `go doc` and writes the one that compiles.
 */
export async function writeClientDefaults(dir: string, go: GoCommand): Promise<void> {
  const has = await hasSymbol(go, 'DefaultSessionPoolConfig');
  const config = has ? 'spanner.ClientConfig{SessionPoolConfig: spanner.DefaultSessionPoolConfig}' : 'spanner.ClientConfig{}';
  writeFileSync(
    path.join(dir, 'defaults_gen.go'),
    `// Written by the runner's Go installer for this client version (version-sources.ts, writeClientDefaults).\npackage main\n\nimport "cloud.google.com/go/spanner"\n\nfunc newClientDefaults() (spanner.ClientConfig, error) { return ${config}, nil }\n`,
  );
}

/**
 * startPoolStats for this version: versions whose session pool records OpenCensus measures
 * (SessionsCountView: sessions in use, idle for reads, prepared for writes, being prepared; and
 * OpenSessionCountView) get a sampler reading those views in-process every second; others (the
 * monorepo era, and versions without the views) get none. Asked of `go doc`, as writeClientDefaults.
 */
export async function writePoolStats(dir: string, go: GoCommand): Promise<void> {
  const has = await hasSymbol(go, 'SessionsCountView');
  const body = has
    ? `import (
	"cloud.google.com/go/spanner"
	"go.opencensus.io/stats/view"
)

func startPoolStats() (func() map[string]int64, error) {
	if err := view.Register(spanner.SessionsCountView, spanner.OpenSessionCountView); err != nil {
		return nil, err
	}
	last := func(name string, each func(tags map[string]string, v int64)) {
		rows, err := view.RetrieveData(name)
		if err != nil {
			return
		}
		for _, r := range rows {
			if d, ok := r.Data.(*view.LastValueData); ok {
				tags := map[string]string{}
				for _, t := range r.Tags {
					tags[t.Key.Name()] = t.Value
				}
				each(tags, int64(d.Value))
			}
		}
	}
	return func() map[string]int64 {
		out := map[string]int64{}
		last(spanner.SessionsCountView.Name, func(tags map[string]string, v int64) { out[tags["type"]] += v })
		last(spanner.OpenSessionCountView.Name, func(_ map[string]string, v int64) { out["num_open_sessions"] += v })
		return out
	}, nil
}
`
    : 'func startPoolStats() (func() map[string]int64, error) { return nil, nil }\n';
  writeFileSync(
    path.join(dir, 'poolstats_gen.go'),
    `// Written by the runner's Go installer for this client version (version-sources.ts, writePoolStats).
package main

${body}`,
  );
}

/**
 * The build tags of the scan's later column types and options (driver/scan_*.go): each where this
 * version's spanner package has the Go type it decodes into (NUMERIC from v1.10.0, JSON from v1.25.0,
 * FLOAT32 from v1.59.0; none in the monorepo era), or the switch an option sets (goJsonUseNumber:
 * UseNumberWithJSONDecoderEncoder, v1.54.0). Without one, the driver refuses a column of that type or
 * the option (exit 4). Asked of `go doc`, as writeClientDefaults.
 */
export async function scanBuildTags(go: GoCommand): Promise<string[]> {
  const tags = { scb_numeric: 'NullNumeric', scb_json: 'NullJSON', scb_float32: 'NullFloat32', scb_uuid: 'NullUUID', scb_json_number: 'UseNumberWithJSONDecoderEncoder' };
  const found = await Promise.all(Object.entries(tags).map(async ([tag, symbol]) => ((await hasSymbol(go, symbol)) ? [tag] : [])));
  return found.flat();
}
