// The recipes in docs/architecture.md name files, folders and symbols in backticks; a recipe that names
// something moved or renamed misleads whoever follows it. Every path named must exist (placeholders such
// as <language> match any name, "..." any folders), every @scb/ import must be a package export, and every
// symbol must be declared in the sources (exported, a member, a Go func, a Python def or class). Generic
// over the document: a section added later (a target kind's recipe) is checked the same way.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCUMENTS = ['docs/architecture.md'];
const SKIP_DIRS = new Set(['node_modules', '.git', '.cache', '.next', 'target', 'build', 'dist', '__pycache__', 'coverage']);
const SOURCE = /\.(ts|tsx|mjs|js|go|java|py|prisma)$/;

/** Every file and folder of the repository (relative, with / separators), folders ending in /. */
function repositoryPaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (SKIP_DIRS.has(e.name)) continue;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out.push(`${rel}/`);
        walk(rel);
      } else out.push(rel);
    }
  };
  walk('');
  return out;
}

/** The inline code spans of a Markdown text, fenced blocks left out. */
export function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');
  return [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, ' ').trim());
}

type Named = { kind: 'path'; path: string } | { kind: 'import'; specifier: string } | { kind: 'symbol'; name: string } | { kind: 'word'; word: string } | null;

/** The runtime's own names, which no source declares. */
const JS_GLOBALS = new Set(['globalThis', 'structuredClone', 'AbortSignal']);
const IDENT = /^[A-Za-z_$][\w$]*$/;
/** camelCase with an inner capital, PascalCase, or UPPER_SNAKE: a name code declares. */
const SYMBOL = /^(?:[a-z][a-z0-9]*[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z]?[\w$]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)$/;

/** What a code span names: a path, an import specifier, a symbol (a call's name too), a word, or nothing checkable (a command, JSON). */
export function classify(span: string): Named {
  if (span.startsWith('@scb/')) return { kind: 'import', specifier: span };
  const call = /^([A-Za-z_$][\w$]*)\(.*\)$/.exec(span);
  if (call) return { kind: 'symbol', name: call[1]! };
  // A command, an absolute or runtime path (<cacheDir>/...), JSON, a route: nothing in the repository to find.
  if (/\s/.test(span) || /^[/{<]/.test(span) || span.includes(':')) return null;
  if (JS_GLOBALS.has(span)) return null;
  if (span.includes('/') || /\.(ts|tsx|mjs|js|go|java|py|md|json|prisma|yml)$/.test(span)) return { kind: 'path', path: span };
  if (IDENT.test(span)) return SYMBOL.test(span) ? { kind: 'symbol', name: span } : { kind: 'word', word: span };
  const dotted = span.split('.');
  if (dotted.length > 1 && dotted.every((p) => IDENT.test(p.replace(/\[\w+\]$/, '')))) {
    const first = dotted[0]!;
    return SYMBOL.test(first) ? { kind: 'symbol', name: first } : { kind: 'word', word: first };
  }
  if (/^[a-z][a-z0-9-]*$/.test(span)) return { kind: 'word', word: span };
  return null;
}

/** A path pattern as a regular expression: <placeholder> one name, ... any folders; a relative one may sit under any folder. */
function pathPattern(p: string): RegExp {
  const escaped = p
    .split(/(<[^>]+>|\.\.\.)/)
    .map((part) => (part === '...' ? '.*' : part.startsWith('<') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const anchored = /^(apps|packages|docs|scripts|test|bench|prisma|examples)\//.test(p) ? '^' : '(^|/)';
  return new RegExp(`${anchored}${escaped}${p.endsWith('/') ? '' : '/?'}$`);
}

function importExists(specifier: string): boolean {
  const [, pkg, sub] = /^@scb\/([^/]+)(?:\/(.+))?$/.exec(specifier) ?? [];
  if (!pkg) return false;
  for (const dir of ['packages', 'apps']) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, dir, pkg, 'package.json'), 'utf8')) as { exports?: Record<string, string> };
      return sub === undefined || Object.hasOwn(manifest.exports ?? {}, `./${sub}`);
    } catch {}
  }
  return false;
}

const declaration = (name: string) => {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(
    [
      `\\bexport\\s+(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?(?:function\\*?|const|let|var|class|interface|type|enum|abstract\\s+class)\\s+${n}\\b`,
      `\\bexport\\s*(?:type\\s*)?\\{[^}]*\\b${n}\\b[^}]*\\}`,
      // A member of an interface or object, a method, a key.
      `^\\s*(?:readonly\\s+)?(?:async\\s+)?['"]?${n}['"]?\\??\\s*[:(]`,
      // Go, Python, Java.
      `\\bfunction\\*?\\s+${n}\\b`,
      `\\bfunc\\s+(?:\\([^)]*\\)\\s*)?${n}\\b`,
      `\\btype\\s+${n}\\b`,
      `^\\s*(?:def|class)\\s+${n}\\b`,
      `\\b(?:class|interface|record|enum)\\s+${n}\\b`,
      `^(?:const|let|var)\\s+${n}\\b`,
      `^${n}\\s*=`,
    ].join('|'),
    'm',
  );
};

const paths = repositoryPaths();
const sources = paths.filter((p) => SOURCE.test(p) && !p.startsWith('docs/')).map((p) => readFileSync(path.join(ROOT, p), 'utf8'));

for (const document of DOCUMENTS) {
  test(`every path, @scb import and symbol ${document} names in backticks exists`, () => {
    const missing: string[] = [];
    const spans = [...new Set(codeSpans(readFileSync(path.join(ROOT, document), 'utf8')))];
    for (const span of spans) {
      const named = classify(span);
      if (!named) continue;
      switch (named.kind) {
        case 'path': {
          const pattern = pathPattern(named.path);
          if (!paths.some((p) => pattern.test(p))) missing.push(`path ${named.path}`);
          break;
        }
        case 'import':
          if (!importExists(named.specifier)) missing.push(`import ${named.specifier}`);
          break;
        case 'symbol': {
          const declared = declaration(named.name);
          if (!sources.some((s) => declared.test(s))) missing.push(`symbol ${named.name}`);
          break;
        }
        case 'word': {
          const word = new RegExp(`(^|[^\\w$-])${named.word.replace(/[$-]/g, '\\$&')}($|[^\\w$-])`);
          if (!sources.some((s) => word.test(s))) missing.push(`word ${named.word}`);
          break;
        }
      }
    }
    assert.deepEqual(missing, [], `${document} names what the repository does not have`);
  });
}

test('the checker tells paths, imports and symbols apart, and misses what is gone', () => {
  assert.deepEqual(classify('packages/languages/src/<language>/info.ts'), { kind: 'path', path: 'packages/languages/src/<language>/info.ts' });
  assert.deepEqual(classify('@scb/shared/registry'), { kind: 'import', specifier: '@scb/shared/registry' });
  assert.deepEqual(classify('toolchain()'), { kind: 'symbol', name: 'toolchain' });
  assert.deepEqual(classify('LANGUAGE_INFO'), { kind: 'symbol', name: 'LANGUAGE_INFO' });
  assert.deepEqual(classify('CellResult.operations[kind].server'), { kind: 'symbol', name: 'CellResult' });
  assert.equal(classify('npm run generate:contract'), null);
  assert.ok(pathPattern('packages/languages/src/<language>/info.ts').test('packages/languages/src/python/info.ts'));
  assert.ok(pathPattern('packages/languages/src/java/driver/.../Operations.java').test('packages/languages/src/java/driver/src/main/java/bench/Operations.java'));
  assert.ok(pathPattern('job/spec.ts').test('packages/shared/src/job/spec.ts'));
  assert.ok(!pathPattern('job/spec.ts').test('packages/shared/src/job/myspec.ts'));
  assert.ok(!importExists('@scb/shared/nothing-here') && importExists('@scb/languages/info'));
  assert.ok(!sources.some((s) => declaration('LANGUAGE_INFO').test(s)), 'the moved LANGUAGE_INFO is declared nowhere');
  assert.ok(sources.some((s) => declaration('runDriver').test(s)));
  assert.deepEqual(codeSpans('a `b`\n```\n`c`\n```\nand `d\ne`'), ['b', 'd e']);
});
