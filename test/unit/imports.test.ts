// The repo's own modules (packages/*, apps/*, scripts/) import one another without a cycle, and no app
// or package imports from scripts/ (scripts sit on top: they may use everything, nothing uses them).
// Read with the TypeScript compiler's parser and module resolution (workspace packages through their
// package.json exports). Imports of types count: a cycle of types still ties two layers together.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const SKIP = new Set(['node_modules', '.next', 'generated', '.cache']);

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) out.push(p);
  }
  return out;
}

/** The modules a file imports: import and export declarations (of types too: a cycle of types still ties the layers together) and import() of a literal. */
function imports(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]))
      specifiers.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return specifiers;
}

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
};
const WEB = path.join(ROOT, 'apps/web');
const WEB_OPTIONS: ts.CompilerOptions = { ...OPTIONS, baseUrl: WEB, paths: { '@/*': ['./*'] } };

/** The repo's import graph: each file (relative to the root) to the repo files it imports. */
export function importGraph(): Map<string, string[]> {
  const files = ['packages', 'apps', 'scripts'].flatMap((d) => sources(path.join(ROOT, d)));
  const graph = new Map<string, string[]>();
  // One cache per set of options: most files import the same few packages.
  const caches = new Map([OPTIONS, WEB_OPTIONS].map((o) => [o, ts.createModuleResolutionCache(ROOT, (f) => f, o)]));
  for (const file of files) {
    const options = file.startsWith(WEB + path.sep) ? WEB_OPTIONS : OPTIONS;
    const targets = new Set<string>();
    for (const spec of imports(file)) {
      const r = ts.resolveModuleName(spec, file, options, ts.sys, caches.get(options)).resolvedModule;
      if (!r || r.isExternalLibraryImport) continue;
      // A plain JavaScript module's declarations (x.d.mts beside x.mjs) stand for the module.
      const js = r.resolvedFileName.replace(/\.d\.(m?)ts$/, '.$1js');
      const real = realpathSync(existsSync(js) ? js : r.resolvedFileName);
      if (real.includes(`${path.sep}node_modules${path.sep}`) || !real.startsWith(ROOT + path.sep)) continue;
      targets.add(path.relative(ROOT, real));
    }
    graph.set(path.relative(ROOT, file), [...targets].sort());
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted, and files importing themselves. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

const graph = importGraph();

test('the import graph is read: workspace packages resolve to their files', () => {
  // A check that found no edges would pass on anything: the runner's main module reaches the shared package.
  const main = graph.get('apps/runner/src/main.ts') ?? [];
  assert.ok(main.length > 3, `apps/runner/src/main.ts imports ${main.length} repo files`);
  assert.ok(
    [...graph.values()].some((to) => to.some((f) => f.startsWith('packages/shared/src/'))),
    'some file imports @scb/shared',
  );
});

test('no import cycle among the repo’s own modules', () => {
  const found = cycles(graph);
  assert.deepEqual(found, [], `import cycles (each a set of files that import one another):\n${found.map((c) => `  ${c.join(' ')}`).join('\n')}`);
});

test('no app or package imports from scripts/', () => {
  const up = [...graph].flatMap(([from, to]) => (from.startsWith('scripts/') ? [] : to.filter((f) => f.startsWith('scripts/')).map((f) => `${from} → ${f}`)));
  assert.deepEqual(up, [], `imports of scripts/ from apps or packages:\n  ${up.join('\n  ')}`);
});

test('scripts/ use the runner through its packages, not its internals', () => {
  const internal = [...graph].flatMap(([from, to]) => (from.startsWith('scripts/') ? to.filter((f) => f.startsWith('apps/')).map((f) => `${from} → ${f}`) : []));
  assert.deepEqual(internal, [], `scripts importing an app's modules:\n  ${internal.join('\n  ')}`);
});

test('the cycle finder finds a cycle and a self-import', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
    ['e', ['e']],
  ]);
  assert.deepEqual(cycles(g), [['a', 'b', 'c'], ['e']]);
});

test('the web app links through PageLink: no page or component imports next/link, whose links prefetch on sight', () => {
  const direct = sources(WEB)
    .filter((f) => imports(f).includes('next/link'))
    .map((f) => path.relative(ROOT, f));
  assert.deepEqual(direct, ['apps/web/components/PageLink.tsx'], `files importing next/link themselves: ${direct.join(', ')}`);
});
