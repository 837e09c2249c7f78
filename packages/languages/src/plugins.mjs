// The operator's plug-ins: SCB_PLUGINS lists modules (comma-separated absolute paths, TypeScript or
// JavaScript) that the web app and every runner import at start, before serving. A module registers
// its client languages and target kinds on import (registerLanguage and registerTargetKind from
// @scb/shared/registry, registerLanguagePlugin from @scb/languages) and exports the runner's side of
// its target kinds as `targetPlugins` (docs/architecture.md, "Plug-ins outside the repository").
// Plain JavaScript: the web server (server.mjs) runs without a TypeScript loader of its own.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const PLUGINS_VARIABLE = 'SCB_PLUGINS';

/** The paths in the variable's value, or one sentence naming the entry that is not a module file. */
export function pluginPaths(value) {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of entries) {
    if (!path.isAbsolute(p)) return { ok: false, error: `${PLUGINS_VARIABLE}: "${p}" is not an absolute path` };
    if (!existsSync(p) || !statSync(p).isFile()) return { ok: false, error: `${PLUGINS_VARIABLE}: "${p}" is not a file` };
    if (!/\.(ts|mts|js|mjs)$/.test(p)) return { ok: false, error: `${PLUGINS_VARIABLE}: "${p}" is not a .ts, .mts, .js or .mjs module` };
  }
  return { ok: true, paths: entries };
}

/** Imports every plug-in module of the variable's value, in order; returns their namespaces. Throws a sentence naming the module that failed. */
export async function loadPlugins(value) {
  const listed = pluginPaths(value);
  if (!listed.ok) throw new Error(listed.error);
  if (listed.paths.length === 0) return [];
  // TypeScript modules need tsx's loader where the process has none (the web server; the runner runs under tsx).
  if (!process.execArgv.some((a) => a.includes('tsx'))) (await import('tsx/esm/api')).register();
  const modules = [];
  for (const p of listed.paths) {
    try {
      modules.push(await import(pathToFileURL(p).href));
    } catch (e) {
      throw new Error(`${PLUGINS_VARIABLE}: loading ${p} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return modules;
}
