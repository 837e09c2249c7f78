// test: yields
// Uploaded client builds (issue 37): every refusal leaves nothing on disk; real builds of each
// language (npm pack's tarball, the Go module cache's zip, a fragment of the local Maven repository)
// are read with the version they carry and unpacked byte for byte as the system's tar and Go's own
// hash of the module zip see them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import {
  ArtifactError,
  artifactId,
  DEFAULT_ARTIFACT_LIMITS,
  inspectArtifact,
  makeMavenFragment,
  publishedPythonWheel,
  rewriteWheel,
  slowedPythonBuild,
  tarGz,
  unpackArtifact,
  zipOf,
  type ArtifactLimits,
} from '../../src/index';
import { readZip } from '../../src/artifacts/zip';
import { tarOf, type TarInput } from '../../src/artifacts/tar';

const TMP = mkdtempSync(path.join(os.tmpdir(), 'scb-artifacts-'));
after(() => rmSync(TMP, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => path.join(TMP, `out-${++dirs}`);

/** Every file under `dir` with its bytes, by relative path. */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else out.set(r, readFileSync(path.join(dir, r)));
    }
  };
  walk('');
  return out;
}

function assertSameTree(actual: string, expected: string): void {
  const a = tree(actual);
  const e = tree(expected);
  assert.deepEqual([...a.keys()].sort(), [...e.keys()].sort());
  for (const [p, bytes] of e) assert.ok(a.get(p)!.equals(bytes), `${p} differs`);
}

/**
 * The upload is refused with a message matching `reason`, by inspection and by unpacking, and
 * unpacking writes nothing: a folder that did not exist still does not, an empty one stays empty.
 */
function refused(language: string, bytes: Buffer, reason: RegExp, limits?: ArtifactLimits): string {
  let message = '';
  assert.throws(
    () => inspectArtifact(language, bytes, limits),
    (e: unknown) => {
      message = (e as Error).message;
      return e instanceof ArtifactError && reason.test(message);
    },
  );
  const absent = freshDir();
  assert.throws(() => unpackArtifact(language, bytes, absent, limits), ArtifactError);
  assert.ok(!existsSync(absent), 'a refused upload creates no folder');
  const empty = freshDir();
  mkdirSync(empty);
  assert.throws(() => unpackArtifact(language, bytes, empty, limits), ArtifactError);
  assert.deepEqual(readdirSync(empty), [], 'a refused upload writes nothing into the folder');
  return message;
}

// ---- small builds of each language, to make hostile variants of ------------------------------

const packageJson = (o: object = {}) => JSON.stringify({ name: '@google-cloud/spanner', version: '9.0.0', ...o });
const nodeEntries = (extra: TarInput[] = [], manifest?: object): TarInput[] => [
  { path: 'package/package.json', data: packageJson(manifest) },
  { path: 'package/build/src/index.js', data: 'module.exports = {};\n' },
  ...extra,
];
const node = (extra: TarInput[] = [], manifest?: object) => tarGz(nodeEntries(extra, manifest));

const pom = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n${inner}\n</project>\n`;
const spannerPom = (version: string) => pom(`  <groupId>com.google.cloud</groupId>\n  <artifactId>google-cloud-spanner</artifactId>\n  <version>${version}</version>`);
const javaEntries = (version = '6.104.1-SNAPSHOT', top = ''): TarInput[] => [
  { path: `${top}com/google/cloud/google-cloud-spanner/${version}/google-cloud-spanner-${version}.pom`, data: spannerPom(version) },
  { path: `${top}com/google/cloud/google-cloud-spanner/${version}/google-cloud-spanner-${version}.jar`, data: 'PK jar' },
  { path: `${top}com/google/api/grpc/proto-google-cloud-spanner-v1/${version}/proto-google-cloud-spanner-v1-${version}.jar`, data: 'PK proto' },
];

const GO_PREFIX = 'cloud.google.com/go/spanner@v1.2.3/';
const goMod = (module = 'cloud.google.com/go/spanner') => `module ${module}\n\ngo 1.23\n`;
const goZip = (extra: Parameters<typeof zipOf>[0] = [], prefix = GO_PREFIX, module?: string) =>
  zipOf([{ path: `${prefix}go.mod`, data: goMod(module) }, { path: `${prefix}client.go`, data: 'package spanner\n' }, ...extra]);

const DIST_INFO = 'google_cloud_spanner-3.72.0.dev0.dist-info';
const metadata = (name = 'google-cloud-spanner', version = '3.72.0.dev0', requires: string[] = []) =>
  [`Metadata-Version: 2.1`, `Name: ${name}`, `Version: ${version}`, ...requires.map((r) => `Requires-Dist: ${r}`), '', 'The body, which is not read.', 'Name: not-a-header'].join('\n');
const wheel = (extra: Parameters<typeof zipOf>[0] = [], meta = metadata(), info = DIST_INFO, tags = ['py2-none-any', 'py3-none-any']) =>
  zipOf([
    { path: 'google/cloud/spanner_v1/__init__.py', data: '' },
    { path: `${info}/METADATA`, data: meta },
    { path: `${info}/WHEEL`, data: ['Wheel-Version: 1.0', 'Root-Is-Purelib: true', ...tags.map((t) => `Tag: ${t}`), ''].join('\n') },
    { path: `${info}/RECORD`, data: '' },
    ...extra,
  ]);

// ---- what each language accepts ---------------------------------------------------------------

test('a small build of each language is read with its version and unpacked at its root', () => {
  const n = inspectArtifact('node', node());
  assert.deepEqual(n, { language: 'node', module: '@google-cloud/spanner', version: '9.0.0', format: 'npm-pack', files: 2, unpackedBytes: Buffer.byteLength(packageJson()) + 21 });
  const nodeDir = freshDir();
  unpackArtifact('node', node(), nodeDir);
  assert.equal(readFileSync(path.join(nodeDir, 'build/src/index.js'), 'utf8'), 'module.exports = {};\n', 'the package folder is the root');

  const j = inspectArtifact('java', tarGz(javaEntries()));
  assert.equal(j.version, '6.104.1-SNAPSHOT');
  assert.equal(j.module, 'com.google.cloud:google-cloud-spanner');
  assert.deepEqual(j.mavenArtifacts, ['com.google.cloud:google-cloud-spanner:6.104.1-SNAPSHOT', 'com.google.api.grpc:proto-google-cloud-spanner-v1:6.104.1-SNAPSHOT']);

  const g = inspectArtifact('go', goZip());
  assert.deepEqual(g, { language: 'go', module: 'cloud.google.com/go/spanner', version: 'v1.2.3', format: 'go-module-zip', files: 2, unpackedBytes: goMod().length + 16 });
  const goDir = freshDir();
  unpackArtifact('go', goZip(), goDir);
  assert.deepEqual(readdirSync(goDir).sort(), ['client.go', 'go.mod']);

  const py = inspectArtifact('python', wheel());
  assert.deepEqual([py.module, py.version, py.format, py.files, py.wheelName], ['google-cloud-spanner', '3.72.0-dev0', 'python-wheel', 4, 'google_cloud_spanner-3.72.0.dev0-py2.py3-none-any.whl']);
});

test('the id is the sha256 of the bytes: the same upload, the same id', () => {
  const a = node();
  assert.match(artifactId(a), /^sha256:[0-9a-f]{64}$/);
  assert.equal(artifactId(Buffer.from(a)), artifactId(a));
  assert.equal(artifactId(a), `sha256:${createHash('sha256').update(a).digest('hex')}`);
  assert.notEqual(artifactId(node([{ path: 'package/x.js', data: '1' }])), artifactId(a));
});

test('long names in pax headers and GNU long-name entries are read as the full path', () => {
  const long = `package/${'d'.repeat(90)}/${'f'.repeat(60)}.js`;
  for (const longNames of ['pax', 'gnu'] as const) {
    const bytes = tarGz(nodeEntries([{ path: long, data: 'long' }]), { longNames });
    const dir = freshDir();
    assert.equal(unpackArtifact('node', bytes, dir).files, 3);
    assert.equal(readFileSync(path.join(dir, long.slice('package/'.length)), 'utf8'), 'long', longNames);
  }
});

test('modes: no setuid, setgid, sticky or group/other write; owner-executable files stay executable', () => {
  const dir = freshDir();
  unpackArtifact(
    'node',
    node([
      { path: 'package/bin/run', data: '#!/bin/sh\n', mode: 0o6777 },
      { path: 'package/open', type: 'dir', mode: 0o1777 },
      { path: 'package/plain.js', data: '', mode: 0o666 },
    ]),
    dir,
  );
  const mode = (p: string) => statSync(path.join(dir, p)).mode & 0o7777;
  assert.equal(mode('bin/run') & 0o7022, 0);
  assert.equal(mode('bin/run') & 0o100, 0o100);
  assert.equal(mode('open') & 0o7022, 0);
  assert.equal(mode('plain.js') & 0o7133, 0);
});

test('unpacking needs a new or empty folder, never one reached through a link', () => {
  const full = freshDir();
  mkdirSync(full);
  mkdirSync(path.join(full, 'old'));
  assert.throws(() => unpackArtifact('node', node(), full), /not empty/);
  const link = freshDir();
  const real = freshDir();
  mkdirSync(real);
  symlinkSync(real, link);
  assert.throws(() => unpackArtifact('node', node(), link), /not a folder/);
  assert.deepEqual(readdirSync(real), []);
});

// ---- refusals, each before anything is written -----------------------------------------------

test('absolute paths, "..", backslashes and NUL or control characters in names are refused', () => {
  refused('node', node([{ path: '/etc/cron.d/x', data: 'x' }]), /"\/etc\/cron.d\/x" has an absolute path/);
  refused('node', node([{ path: 'package/../../.bashrc', data: 'x' }]), /"package\/..\/..\/.bashrc" has a "\.\." component/);
  refused('node', node([{ path: 'package\\..\\x', data: 'x' }]), /backslash/);
  refused('node', node([{ path: 'package/a\nb', data: 'x' }]), /control character/);
  refused('node', node([{ path: `package/${'x'.repeat(100)}\0.js`, data: 'x' }]), /NUL character/); // long: the name goes in a pax header
  refused('go', goZip([{ path: `${GO_PREFIX}../../../x.go`, data: 'x' }]), /"\.\." component/);
  refused('go', goZip([{ path: '/tmp/x', data: 'x' }]), /absolute path/);
});

test('links are refused: a symlink out of the tree (tar and zip), one inside it, and a hard link', () => {
  assert.match(refused('node', node([{ path: 'package/evil', type: 'symlink', linkTarget: '../../../etc/passwd' }]), /symbolic link/), /leaves the archive's tree/);
  assert.match(refused('node', node([{ path: 'package/abs', type: 'symlink', linkTarget: '/etc/passwd' }]), /symbolic link/), /leaves/);
  assert.match(refused('node', node([{ path: 'package/inside', type: 'symlink', linkTarget: 'build/src/index.js' }]), /symbolic link/), /without links of any kind/);
  refused('node', node([{ path: 'package/hard', type: 'hardlink', linkTarget: 'package/package.json' }]), /"package\/hard" is a hard link/);
  refused('go', goZip([{ path: `${GO_PREFIX}evil`, data: '../../../../etc/passwd', unixMode: 0o120777 }]), /symbolic link to "..\/..\/..\/..\/etc\/passwd", which leaves/);
});

test('devices and FIFOs are refused', () => {
  refused('node', node([{ path: 'package/tty', type: 'char-device' }]), /device file/);
  refused('node', node([{ path: 'package/disk', type: 'block-device' }]), /device file/);
  refused('node', node([{ path: 'package/pipe', type: 'fifo' }]), /FIFO/);
});

test('duplicate paths and a file used as a folder are refused', () => {
  refused('node', node([{ path: 'package/package.json', data: packageJson({ name: 'evil' }) }]), /lists "package\/package.json" twice/);
  refused(
    'node',
    node([
      { path: 'package/a', data: 'x' },
      { path: 'package/a/b', data: 'y' },
    ]),
    /lies under "package\/a", which the archive also lists as a file/,
  );
  refused('go', goZip([{ path: `${GO_PREFIX}client.go`, data: 'again' }]), /twice/);
});

test('more entries than the limit are refused', () => {
  const limits = { ...DEFAULT_ARTIFACT_LIMITS, maxFiles: 5 };
  const many = Array.from({ length: 6 }, (_, i) => ({ path: `package/f${i}.js`, data: String(i) }));
  assert.equal(inspectArtifact('node', node(many.slice(0, 3)), limits).files, 5);
  refused('node', node(many), /more than 5 entries/, limits);
  refused('go', goZip(many.map((m) => ({ ...m, path: GO_PREFIX + m.path }))), /more than 5 entries/, limits);
});

test('an upload over the size limit is refused before it is read', () => {
  const bytes = node();
  assert.match(refused('node', bytes, /over the limit/, { ...DEFAULT_ARTIFACT_LIMITS, maxBytes: bytes.length - 1 }), /SCB_MAX_ARTIFACT_MB/);
  assert.equal(inspectArtifact('node', bytes, { ...DEFAULT_ARTIFACT_LIMITS, maxBytes: bytes.length }).version, '9.0.0');
});

test('inflation bombs: gzip stops at the bound while inflating; a zip entry that inflates past its declared size is stopped', () => {
  const limits = { maxBytes: DEFAULT_ARTIFACT_LIMITS.maxBytes, maxFiles: 10, maxUnpackedBytes: 1024 * 1024 };
  const zeros = Buffer.alloc(32 * 1024 * 1024);
  // 32 MiB of zeros gzip to ~32 KiB: not even a tar; the inflation stops at ~2 MiB, before tar is parsed.
  const bomb = gzipSync(zeros);
  assert.ok(bomb.length < 64 * 1024);
  refused('node', bomb, /inflates to more than 2 MiB.*decompression bomb/, limits);
  // Within the gzip bound but over the files' limit: counted from the tar headers.
  refused('node', node([{ path: 'package/big.bin', data: Buffer.alloc(1024 * 1024) }]), /add up to more than 1 MiB/, limits);

  // A zip whose headers say 100 bytes for 1 MiB of deflated zeros.
  const zip = goZip([{ path: `${GO_PREFIX}zeros.bin`, data: Buffer.alloc(1024 * 1024) }]);
  const lying = Buffer.from(zip);
  const name = Buffer.from(`${GO_PREFIX}zeros.bin`);
  for (let i = lying.indexOf(name); i !== -1; i = lying.indexOf(name, i + 1)) {
    const central = lying.readUInt32LE(i - 46) === 0x02014b50;
    lying.writeUInt32LE(100, central ? i - 46 + 24 : i - 30 + 22);
  }
  refused('go', lying, /"cloud.google.com\/go\/spanner@v1.2.3\/zeros.bin" inflates past the 100 bytes its header declares/);
  // Declared sizes over the limit are refused before anything is inflated.
  refused('go', zip, /add up to more than 1 MiB/, limits);
});

test('an archive of the wrong kind for its language is refused, naming what it is', () => {
  refused('node', goZip(), /npm pack writes.*this upload is a zip file/);
  refused('java', goZip(), /Maven repository fragment as a \.tar\.gz.*a zip file/);
  refused('go', Buffer.from('hello'), /neither gzip nor zip/);
  refused('python', node(), /a wheel \(\.whl, a zip file\).*this upload is a gzip file/);
  refused('node', gzipSync(Buffer.from('not a tar at all, just text that is long enough to fill a header block'.repeat(10))), /wrong checksum/);
  refused('ruby', node(), /builds of "ruby" clients cannot be uploaded/);
});

test('Node: a package other than @google-cloud/spanner, no package.json, files outside package/, or a dependency from outside the registry is refused', () => {
  assert.match(refused('node', node([], { name: 'left-pad' }), /not @google-cloud\/spanner/), /"left-pad"/);
  refused('node', tarGz([{ path: 'package/index.js', data: '' }]), /no package\/package.json/);
  refused('node', tarGz([...nodeEntries(), { path: 'evil.js', data: '' }]), /under one folder, package\/.*"evil.js"/);
  refused('node', node([], { version: 'latest' }), /version "latest" is not a semver version/);
  for (const spec of ['file:../../../etc', 'git+https://example.com/x.git', 'github:user/repo', 'https://example.com/x.tgz']) {
    refused('node', node([], { dependencies: { x: spec } }), /not a version range on the npm registry/);
  }
  assert.equal(inspectArtifact('node', node([], { dependencies: { a: '^1.2.0', b: '>=2 <3 || 4.x', c: 'npm:d@^1', e: 'latest' } })).version, '9.0.0');
});

test('Java: the fragment must hold google-cloud-spanner with its jar and pom, and its version is the pom’s', () => {
  const bigtable = [
    {
      path: 'com/google/cloud/google-cloud-bigtable/2.0.0/google-cloud-bigtable-2.0.0.pom',
      data: pom('<groupId>com.google.cloud</groupId><artifactId>google-cloud-bigtable</artifactId><version>2.0.0</version>'),
    },
    { path: 'com/google/cloud/google-cloud-bigtable/2.0.0/google-cloud-bigtable-2.0.0.jar', data: 'PK' },
  ];
  assert.match(refused('java', tarGz(bigtable), /holds no com.google.cloud:google-cloud-spanner/), /"google-cloud-bigtable 2.0.0"/);
  const v = '6.104.1-SNAPSHOT';
  const dir = `com/google/cloud/google-cloud-spanner/${v}/`;
  const withPom = (xml: string) =>
    tarGz([
      { path: `${dir}google-cloud-spanner-${v}.pom`, data: xml },
      { path: `${dir}google-cloud-spanner-${v}.jar`, data: 'PK' },
    ]);
  refused(
    'java',
    withPom(pom(`<groupId>com.google.cloud</groupId><artifactId>google-cloud-bigtable</artifactId><version>${v}</version>`)),
    /declares com.google.cloud:google-cloud-bigtable, not com.google.cloud:google-cloud-spanner/,
  );
  refused('java', tarGz([javaEntries()[0]!]), /has no .*google-cloud-spanner-6.104.1-SNAPSHOT.jar/);
  const property = '$' + '{revision}'; // CI-friendly versions, as a pom has them before flattening
  refused('java', withPom(pom(`<groupId>com.google.cloud</groupId><artifactId>google-cloud-spanner</artifactId><version>${property}</version>`)), /"\$\{revision\}", a property/);
  refused('java', withPom(spannerPom('6.104.0')), /gives the version "6.104.0" but lies in the folder of version "6.104.1-SNAPSHOT"/);
  refused('java', withPom('<project><artifactId>google-cloud-spanner'), /is not a readable pom/);
  refused('java', tarGz([...javaEntries('6.104.1-SNAPSHOT'), ...javaEntries('6.105.0')]), /at 2 versions/);
  refused('java', tarGz([...javaEntries(undefined, 'repo/'), { path: 'elsewhere/x', data: '' }]), /"elsewhere\/x" lies outside the repository folder/);

  // The version inherited from the parent, when the pom has none of its own.
  const inherited = pom(`<parent><groupId>com.google.cloud</groupId><artifactId>google-cloud-spanner-parent</artifactId><version>${v}</version></parent><artifactId>google-cloud-spanner</artifactId>`);
  assert.equal(inspectArtifact('java', withPom(inherited)).version, v);
  // Under one top folder (the repository root is found), with checksums and metadata beside the files.
  const top = inspectArtifact(
    'java',
    tarGz([...javaEntries(v, 'staging/'), { path: `staging/${dir}maven-metadata-local.xml`, data: '<metadata/>' }, { path: `staging/${dir}_remote.repositories`, data: '' }]),
  );
  assert.equal(top.version, v);
  const unpacked = freshDir();
  unpackArtifact('java', tarGz(javaEntries(v, 'staging/')), unpacked);
  assert.ok(existsSync(path.join(unpacked, dir, `google-cloud-spanner-${v}.pom`)), 'the repository root is the folder unpacked into');
  // mvn deploy's timestamped snapshot files.
  const stamped = `6.104.1-20250102.030405-7`;
  const deployed = tarGz([
    { path: `${dir}google-cloud-spanner-${stamped}.pom`, data: spannerPom(v) },
    { path: `${dir}google-cloud-spanner-${stamped}.jar`, data: 'PK' },
    { path: `${dir}maven-metadata.xml`, data: '<metadata/>' },
  ]);
  assert.equal(inspectArtifact('java', deployed).version, v);
});

test('Python: a wheel of google-cloud-spanner, its version from METADATA; no .data folder, no dependency by URL', () => {
  refused('python', goZip(), /no <name>-<version>\.dist-info folder at its root/);
  refused('python', wheel([], metadata('google-cloud-storage')), /names the distribution "google-cloud-storage", not google-cloud-spanner/);
  // PEP 503: another spelling of the same name is the same distribution.
  assert.equal(inspectArtifact('python', wheel([], metadata('Google_Cloud.Spanner'))).module, 'google-cloud-spanner');
  refused('python', wheel([], metadata(undefined, 'latest')), /the version "latest", which is not a PEP 440 version/);
  refused('python', wheel([], metadata(undefined, '3.72'), 'google_cloud_spanner-3.72.dist-info'), /the version "3\.72", whose release is not three numbers/);
  assert.equal(inspectArtifact('python', wheel([], metadata(undefined, '3.72.0rc1'), 'google_cloud_spanner-3.72.0rc1.dist-info')).version, '3.72.0-rc1');
  refused('python', wheel([], metadata(undefined, '3.71.0')), /does not match METADATA's google-cloud-spanner 3\.71\.0/);
  refused('python', wheel([{ path: 'google_cloud_spanner-3.72.0.dev0.data/scripts/run', data: '#!/bin/sh\n' }]), /a \.data folder installs scripts or files outside site-packages/);
  refused(
    'python',
    wheel([], metadata(undefined, undefined, ['grpcio @ https://example.com/grpcio.whl'])),
    /requires "grpcio @ https:\/\/example.com\/grpcio.whl", a direct reference; .*from PyPI only/,
  );
  // A marker may hold an @ of its own: only the requirement before the semicolon is a reference.
  assert.equal(inspectArtifact('python', wheel([], metadata(undefined, undefined, ['proto-plus >=1.22.0; extra == "x@y"']))).version, '3.72.0-dev0');
  refused('python', wheel([{ path: 'other-1.0.dist-info/METADATA', data: '' }]), /2 \.dist-info folders/);
  refused('python', wheel([], undefined, undefined, ['py3 none any']), /gives the tags "py3 none any"/);
  refused(
    'python',
    zipOf([
      { path: `${DIST_INFO}/METADATA`, data: metadata() },
      { path: `${DIST_INFO}/WHEEL`, data: 'Tag: py3-none-any\n' },
      { path: `${DIST_INFO}/RECORD`, data: '' },
    ]),
    /no google\/cloud\/spanner_v1\/__init__\.py/,
  );
});

test('Go: the module path must be cloud.google.com/go/spanner; a zip’s paths carry the version, a tar’s folder has none', () => {
  assert.match(refused('go', goZip([], 'example.com/evil@v1.0.0/', 'example.com/evil'), /declares the module "example.com\/evil", not cloud.google.com\/go\/spanner/), /go.mod/);
  refused('go', goZip([], 'cloud.google.com/go@v0.40.0/', 'cloud.google.com/go'), /cloud.google.com\/go \(the repository's root module/);
  refused('go', goZip([], GO_PREFIX, 'cloud.google.com/go/spanner/v2'), /declares the module "cloud.google.com\/go\/spanner\/v2"/);
  refused('go', goZip([{ path: 'other@v1.0.0/x.go', data: '' }]), /starts with "cloud.google.com\/go\/spanner@v1.2.3\/", and "other@v1.0.0\/x.go" does not/);
  refused('go', zipOf([{ path: 'spanner/go.mod', data: goMod() }]), /not a Go module zip/);
  refused('go', zipOf([{ path: `${GO_PREFIX}client.go`, data: '' }]), /no cloud.google.com\/go\/spanner@v1.2.3\/go.mod/);
  refused('go', goZip([], 'cloud.google.com/go/spanner@latest/'), /version "latest", which is not a Go module version/);

  const tarAtRoot = tarGz([
    { path: 'go.mod', data: goMod() },
    { path: 'client.go', data: 'package spanner\n' },
  ]);
  const tarUnderTop = tarGz([
    { path: 'spanner/', type: 'dir' },
    { path: 'spanner/go.mod', data: goMod() },
    { path: 'spanner/client.go', data: 'package spanner\n' },
  ]);
  for (const bytes of [tarAtRoot, tarUnderTop]) {
    const info = inspectArtifact('go', bytes);
    assert.deepEqual([info.format, info.version, info.files], ['go-module-tar', 'v0.0.0-local', 2]);
  }
  refused(
    'go',
    tarGz([
      { path: 'a/go.mod', data: goMod() },
      { path: 'b/x.go', data: '' },
    ]),
    /no go.mod at its root or under one top folder/,
  );
  refused('go', tarGz([{ path: 'go.mod', data: goMod('example.com/evil') }]), /declares the module "example.com\/evil"/);
});

test('a tar without end-of-archive blocks is read; one cut short inside an entry is refused', () => {
  const full = tarOf(nodeEntries());
  const noEnd = full.subarray(0, full.length - 1024);
  assert.equal(inspectArtifact('node', gzipSync(noEnd)).files, 2);
  refused('node', gzipSync(full.subarray(0, 3 * 512 + 10)), /cut short: the entry at byte 1024 needs 21 bytes/); // inside index.js's data
});

// ---- real builds ------------------------------------------------------------------------------

/** Every file of a wheel against its RECORD: the hash and size of each, every file listed once. */
function assertRecordHolds(whl: Buffer): Map<string, Buffer> {
  const files = new Map(
    readZip(whl, DEFAULT_ARTIFACT_LIMITS)
      .filter((e) => e.kind === 'file')
      .map((e) => [e.name, e.data]),
  );
  const record = [...files.keys()].find((n) => n.endsWith('.dist-info/RECORD'))!;
  const listed = new Set<string>();
  for (const line of files.get(record)!.toString('utf8').trim().split('\n')) {
    const [name, hash, size] = line.split(',') as [string, string, string];
    listed.add(name);
    if (name === record) continue;
    const data = files.get(name);
    assert.ok(data, `RECORD lists ${name}, which the wheel lacks`);
    assert.equal(hash, `sha256=${createHash('sha256').update(data).digest('base64url')}`, name);
    assert.equal(Number(size), data.length, name);
  }
  assert.deepEqual([...listed].sort(), [...files.keys()].sort(), 'every file listed');
  return files;
}

test('Python: PyPI’s wheel of 3.71.0 reads as 3.71.0; relabelled 3.72.0.dev0 and slowed by 7 ms, every RECORD line holds', async (t) => {
  let published: Buffer;
  try {
    published = await publishedPythonWheel('3.71.0');
  } catch (e) {
    return t.skip(`PyPI's wheel of google-cloud-spanner 3.71.0 could not be downloaded: ${(e as Error).message.split('\n')[0]}`);
  }
  const info = inspectArtifact('python', published);
  assert.deepEqual([info.version, info.format, info.wheelName], ['3.71.0', 'python-wheel', 'google_cloud_spanner-3.71.0-py3-none-any.whl']);

  const relabelled = rewriteWheel(published, { version: '3.72.0.dev0' });
  assert.equal(inspectArtifact('python', relabelled).wheelName, 'google_cloud_spanner-3.72.0.dev0-py3-none-any.whl');
  const files = assertRecordHolds(relabelled);
  assert.ok(files.has('google_cloud_spanner-3.72.0.dev0.dist-info/METADATA') && ![...files.keys()].some((n) => n.includes('3.71.0.dist-info')), 'the .dist-info renamed');
  assert.deepEqual(rewriteWheel(published, { version: '3.72.0.dev0' }), relabelled, 'the same wheel each time: one artifact id, one install');

  const slowed = slowedPythonBuild(published, 7);
  assert.deepEqual(slowed.patched, ['google/cloud/spanner_v1/snapshot.py', 'google/cloud/spanner_v1/transaction.py']);
  assert.equal(inspectArtifact('python', slowed.bytes).version, '3.71.0', 'the same version');
  const snapshot = assertRecordHolds(slowed.bytes).get('google/cloud/spanner_v1/snapshot.py')!.toString('utf8');
  assert.match(snapshot, /_SnapshotBase\.execute_sql = _scb_slow\(_SnapshotBase\.execute_sql\)/);
  // The patched modules still compile.
  const dir = path.join(TMP, 'slowed-py');
  mkdirSync(dir, { recursive: true });
  for (const name of slowed.patched) {
    const file = path.join(dir, path.basename(name));
    writeFileSync(file, assertRecordHolds(slowed.bytes).get(name)!);
    execFileSync('python3', ['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read())', file]);
  }
  // Another layout is refused by name.
  const bare = zipOf([...readZip(published, DEFAULT_ARTIFACT_LIMITS)].filter((e) => e.kind === 'file' && !e.name.endsWith('transaction.py')).map((e) => ({ path: e.name, data: e.data })));
  assert.throws(() => slowedPythonBuild(bare, 7), /the wheel has no google\/cloud\/spanner_v1\/transaction\.py/);
});

test('Node: npm pack @google-cloud/spanner@9.0.0 is read as 9.0.0 and unpacked as tar unpacks it', (t) => {
  const dest = path.join(TMP, 'npm');
  mkdirSync(dest, { recursive: true });
  let file: string;
  try {
    const out = execFileSync('npm', ['pack', '@google-cloud/spanner@9.0.0', '--pack-destination', dest, '--json', '--silent'], { encoding: 'utf8', timeout: 120_000, cwd: dest });
    file = path.join(dest, JSON.parse(out)[0].filename);
  } catch (e) {
    t.skip(`npm pack @google-cloud/spanner@9.0.0 failed (no registry and not in npm's cache): ${(e as Error).message.split('\n')[0]}`);
    return;
  }
  const bytes = readFileSync(file);
  const info = inspectArtifact('node', bytes);
  assert.equal(info.module, '@google-cloud/spanner');
  assert.equal(info.version, '9.0.0');
  assert.equal(info.format, 'npm-pack');
  const mine = freshDir();
  assert.deepEqual(unpackArtifact('node', bytes, mine), info);
  const theirs = path.join(TMP, 'npm-tar');
  mkdirSync(theirs);
  execFileSync('tar', ['xzf', file, '-C', theirs]);
  assertSameTree(mine, path.join(theirs, 'package'));
  assert.equal(tree(mine).size, info.files);
});

/** A cached zip of cloud.google.com/go/spanner: the product's Go module cache first, then Go's own. */
function goModuleZip(): { zip: string; version: string } | null {
  const roots: (() => string)[] = [process.env.SCB_CACHE_DIR, CACHE_DIR, path.join(os.homedir(), '.cache', 'spanner-client-bench')].filter(Boolean).map((r) => () => path.join(r!, 'go', 'mod'));
  roots.push(() => {
    try {
      return execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8', timeout: 30_000 }).trim();
    } catch {
      return '/nonexistent';
    }
  });
  for (const root of roots) {
    const dir = path.join(root(), 'cache', 'download', 'cloud.google.com', 'go', 'spanner', '@v');
    if (!existsSync(dir)) continue;
    const zips = readdirSync(dir).filter((f) => f.endsWith('.zip') && existsSync(path.join(dir, f.replace(/\.zip$/, '.ziphash'))));
    const pick = zips.find((f) => f === 'v1.96.1.zip') ?? zips.sort().at(-1);
    if (pick) return { zip: path.join(dir, pick), version: pick.replace(/\.zip$/, '') };
  }
  return null;
}

test('Go: the module cache’s zip of cloud.google.com/go/spanner is read with its version; unpacked, it hashes to Go’s own ziphash', (t) => {
  const found = goModuleZip();
  if (!found) {
    t.skip('no zip of cloud.google.com/go/spanner in the product’s Go module cache (SCB_CACHE_DIR/go/mod) or go env GOMODCACHE: a Go job installs one');
    return;
  }
  const bytes = readFileSync(found.zip);
  const info = inspectArtifact('go', bytes);
  assert.deepEqual([info.module, info.version, info.format], ['cloud.google.com/go/spanner', found.version, 'go-module-zip']);
  const dir = freshDir();
  unpackArtifact('go', bytes, dir);
  // Go's dirhash h1 over the zip's files (golang.org/x/mod/sumdb/dirhash.Hash1), recorded beside it by `go mod download`.
  const prefix = `cloud.google.com/go/spanner@${found.version}/`;
  const files = tree(dir);
  const summary = [...files.keys()]
    .map((p) => prefix + p)
    .sort()
    .map(
      (name) =>
        `${createHash('sha256')
          .update(files.get(name.slice(prefix.length))!)
          .digest('hex')}  ${name}\n`,
    )
    .join('');
  assert.equal(`h1:${createHash('sha256').update(summary).digest('base64')}`, readFileSync(found.zip.replace(/\.zip$/, '.ziphash'), 'utf8').trim());
  assert.equal(files.size, info.files);

  // The same module as a .tar.gz of its folder (system tar: "./" entries), at the root and under one folder.
  const atRoot = path.join(TMP, 'go-root.tar.gz');
  execFileSync('tar', ['czf', atRoot, '-C', dir, '.']);
  const fromTar = inspectArtifact('go', readFileSync(atRoot));
  assert.deepEqual([fromTar.format, fromTar.version, fromTar.files, fromTar.unpackedBytes], ['go-module-tar', 'v0.0.0-local', info.files, info.unpackedBytes]);
  const underTop = path.join(TMP, 'go-top.tar.gz');
  execFileSync('tar', ['czf', underTop, '-C', path.dirname(dir), path.basename(dir)]);
  const again = freshDir();
  unpackArtifact('go', readFileSync(underTop), again);
  assertSameTree(again, dir);
});

const M2 = path.join(os.homedir(), '.m2', 'repository');
const SPANNER_M2 = path.join(M2, 'com', 'google', 'cloud', 'google-cloud-spanner');
const PROTO_M2 = path.join(M2, 'com', 'google', 'api', 'grpc', 'proto-google-cloud-spanner-v1');
const has = (dir: string, a: string, v: string) => ['jar', 'pom'].every((ext) => existsSync(path.join(dir, v, `${a}-${v}.${ext}`)));
/** A version of the Java client the local Maven repository holds with its proto module: 6.105.0 when there. */
function m2Version(): string | null {
  if (!existsSync(SPANNER_M2)) return null;
  const versions = readdirSync(SPANNER_M2).filter((v) => has(SPANNER_M2, 'google-cloud-spanner', v) && has(PROTO_M2, 'proto-google-cloud-spanner-v1', v));
  return versions.includes('6.105.0') ? '6.105.0' : (versions.sort().at(-1) ?? null);
}

test('Java: a fragment of the local Maven repository, tarred by the system tar under one folder, is read with its version and artifacts', (t) => {
  const v = m2Version();
  if (!v) {
    t.skip(`~/.m2 holds no google-cloud-spanner with its proto-google-cloud-spanner-v1 jar and pom: a Java job installs them`);
    return;
  }
  const repo = path.join(TMP, 'm2-fragment', 'repository');
  for (const [from, rel] of [
    [path.join(SPANNER_M2, v), `com/google/cloud/google-cloud-spanner/${v}`],
    [path.join(PROTO_M2, v), `com/google/api/grpc/proto-google-cloud-spanner-v1/${v}`],
  ] as const) {
    mkdirSync(path.join(repo, rel), { recursive: true });
    for (const f of readdirSync(from)) copyFileSync(path.join(from, f), path.join(repo, rel, f));
  }
  const file = path.join(TMP, 'fragment.tar.gz');
  execFileSync('tar', ['czf', file, '-C', path.dirname(repo), 'repository']);
  const bytes = readFileSync(file);
  const info = inspectArtifact('java', bytes);
  assert.equal(info.module, 'com.google.cloud:google-cloud-spanner');
  assert.equal(info.version, v);
  assert.deepEqual(info.mavenArtifacts, [`com.google.cloud:google-cloud-spanner:${v}`, `com.google.api.grpc:proto-google-cloud-spanner-v1:${v}`]);
  const dir = freshDir();
  unpackArtifact('java', bytes, dir);
  assertSameTree(dir, repo);
});

test('Java: 6.105.0 relabelled 6.104.1-SNAPSHOT from the local Maven repository reads as the snapshot, the jars unchanged', (t) => {
  if (!has(SPANNER_M2, 'google-cloud-spanner', '6.105.0') || !has(PROTO_M2, 'proto-google-cloud-spanner-v1', '6.105.0')) {
    t.skip('~/.m2 holds no google-cloud-spanner 6.105.0 with proto-google-cloud-spanner-v1: a Java job for 6.105.0 installs them');
    return;
  }
  const to = '6.104.1-SNAPSHOT';
  const bytes = makeMavenFragment({ from: '6.105.0', to, topFolder: 'staging' });
  const info = inspectArtifact('java', bytes);
  assert.equal(info.version, to);
  assert.ok(info.mavenArtifacts!.length >= 2);
  assert.ok(info.mavenArtifacts!.every((a) => a.endsWith(`:${to}`)));
  assert.ok(info.mavenArtifacts!.includes(`com.google.api.grpc:proto-google-cloud-spanner-v1:${to}`));
  const dir = freshDir();
  unpackArtifact('java', bytes, dir);
  const at = (rel: string) => path.join(dir, 'com/google/cloud/google-cloud-spanner', rel);
  assert.ok(readFileSync(at(`${to}/google-cloud-spanner-${to}.jar`)).equals(readFileSync(path.join(SPANNER_M2, '6.105.0', 'google-cloud-spanner-6.105.0.jar'))));
  const relabelled = readFileSync(at(`${to}/google-cloud-spanner-${to}.pom`), 'utf8');
  const original = readFileSync(path.join(SPANNER_M2, '6.105.0', 'google-cloud-spanner-6.105.0.pom'), 'utf8');
  assert.match(relabelled, /<artifactId>proto-google-cloud-spanner-v1<\/artifactId>\s*<version>6\.104\.1-SNAPSHOT<\/version>/, 'a relabelled sibling is depended on at the new version');
  // Only versions change: put 6.105.0 back where the snapshot is and the original pom returns.
  assert.equal(relabelled.replaceAll(to, '6.105.0'), original);
  assert.equal(readFileSync(at(`${to}/google-cloud-spanner-${to}.pom.sha1`), 'utf8'), createHash('sha1').update(relabelled).digest('hex'));
});
