// What the per-client benches read from their command line and environment.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** The numbers after `--`, each defaulting to its place in `defaults`. */
export function numberArgs(defaults: number[]): number[] {
  const given = process.argv
    .slice(2)
    .filter((a) => a !== '--')
    .map(Number);
  return defaults.map((d, i) => given[i] ?? d);
}

/** CLIENTS="go 0.37.0 1.17.0,node 9.0.0" (language, version, optional gRPC pin), or `fallback`. */
export function clientsFromEnv(fallback: string): { language: string; version: string; grpcVersion?: string }[] {
  return (process.env.CLIENTS ?? fallback).split(',').map((c) => {
    const [language, version, grpcVersion] = c.trim().split(' ');
    return { language: language!, version: version!, ...(grpcVersion ? { grpcVersion } : {}) };
  });
}

/** The header line every findings file quotes: commit, cores, date. */
export function benchHeader(): string {
  return `# commit ${execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).trim()}, ${os.availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}`;
}
