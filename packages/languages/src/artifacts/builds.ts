// Which client a checked archive is a build of, and where the build's root lies in it, per language.
// Each refusal names what was found and what was expected.
import { ArtifactError, quote, type Entry } from './archive';
import { pomCoordinates, type PomCoordinates } from './pom';

export type ArtifactFormat = 'npm-pack' | 'maven-fragment' | 'go-module-zip' | 'go-module-tar' | 'python-wheel';

export const NODE_MODULE = '@google-cloud/spanner';
export const JAVA_GROUP = 'com.google.cloud';
export const JAVA_ARTIFACT = 'google-cloud-spanner';
export const JAVA_MODULE = `${JAVA_GROUP}:${JAVA_ARTIFACT}`;
export const GO_MODULE = 'cloud.google.com/go/spanner';
export const PYTHON_MODULE = 'google-cloud-spanner';
/**
 * The version of a Go build uploaded as a .tar.gz of the module's folder: such a folder carries no
 * version of its own (go.mod names only the module path), so the upload's label says which build it
 * is. A valid Go module version, usable in a require line that a replace directive points at the folder.
 */
export const GO_LOCAL_VERSION = 'v0.0.0-local';

/** What the build says about itself, and the prefix (empty or ending in '/') of its root in the archive. */
export interface Build {
  module: string;
  version: string;
  format: ArtifactFormat;
  root: string;
  mavenArtifacts?: string[];
  /** Python only: the file name pip needs to take the wheel (<distribution>-<version>-<tag>.whl). */
  wheelName?: string;
}

const NPM_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
const GO_VERSION = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+incompatible)?$/;
const MAVEN_VERSION = /^[0-9A-Za-z][0-9A-Za-z._+-]{0,99}$/;
const MAVEN_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

const fileAt = (entries: Entry[], p: string) => entries.find((e) => e.kind === 'file' && e.path === p);
const topLevel = (entries: Entry[]) => [...new Set(entries.map((e) => e.path.split('/')[0]!))].sort();
const list = (names: string[], max = 5) => names.slice(0, max).map(quote).join(', ') + (names.length > max ? ` and ${names.length - max} more` : '');

/** The one top folder every entry lies under, or an error built from `what`. */
function oneTopFolder(entries: Entry[], what: string): string {
  const tops = topLevel(entries);
  const loose = entries.find((e) => e.kind === 'file' && !e.path.includes('/'));
  if (tops.length !== 1 || loose) throw new ArtifactError(`${what}; this archive has ${tops.length} top-level entries (${list(tops)})`);
  return tops[0]!;
}

// ---- Node: the tarball npm pack writes --------------------------------------------------------

/** A dependency npm installs from the registry: a range or tag, or an npm: alias to one. */
const REGISTRY_SPEC = /^(npm:(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*@)?[\w.^~<>=|* +-]*$/i;

export function nodeBuild(entries: Entry[]): Build {
  if (entries.length === 0) throw new ArtifactError('the archive is empty');
  const top = oneTopFolder(entries, 'npm pack puts every file of the package under one folder, package/');
  const pj = fileAt(entries, `${top}/package.json`);
  if (!pj) throw new ArtifactError(`the archive has no ${top}/package.json: it is not a package as npm pack writes it`);
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(pj.data.toString('utf8'));
  } catch (e) {
    throw new ArtifactError(`${top}/package.json is not valid JSON (${(e as Error).message})`);
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) throw new ArtifactError(`${top}/package.json is not a JSON object`);
  const name = manifest.name;
  if (name !== NODE_MODULE) throw new ArtifactError(`the package is ${typeof name === 'string' ? quote(name) : 'unnamed'}, not ${NODE_MODULE}: its package.json must name the Spanner client`);
  const version = manifest.version;
  if (typeof version !== 'string' || !NPM_VERSION.test(version)) {
    throw new ArtifactError(`package.json's version ${typeof version === 'string' ? quote(version) : 'is missing and'} is not a semver version`);
  }
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = manifest[field];
    if (deps === undefined) continue;
    if (!deps || typeof deps !== 'object' || Array.isArray(deps)) throw new ArtifactError(`package.json's ${field} is not an object of package names and versions`);
    for (const [dep, spec] of Object.entries(deps)) {
      if (typeof spec !== 'string' || !REGISTRY_SPEC.test(spec)) {
        throw new ArtifactError(
          `package.json's ${field} give ${quote(dep)} as ${typeof spec === 'string' ? quote(spec) : 'a non-string'}, which is not a version range on the npm registry; a candidate installs its dependencies from the registry only`,
        );
      }
    }
  }
  return { module: NODE_MODULE, version, format: 'npm-pack', root: `${top}/` };
}

// ---- Java: a Maven repository fragment -------------------------------------------------------

const SPANNER_PATH = /^(?:([^/]+)\/)?com\/google\/cloud\/google-cloud-spanner\/([^/]+)\/([^/]+)$/;
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every groupId:artifactId:version in a repository layout that has a jar (its pom, if any, beside it). */
function jarArtifacts(entries: Entry[], root: string): string[] {
  const found = new Set<string>();
  for (const e of entries) {
    if (e.kind !== 'file' || !e.path.startsWith(root) || !e.path.endsWith('.jar')) continue;
    const parts = e.path.slice(root.length).split('/');
    if (parts.length < 4) continue;
    const [artifactId, version, file] = parts.slice(-3) as [string, string, string];
    const groupId = parts.slice(0, -3).join('.');
    if (!file.startsWith(`${artifactId}-`) || !MAVEN_ID.test(groupId) || !MAVEN_ID.test(artifactId) || !MAVEN_VERSION.test(version)) continue;
    found.add(`${groupId}:${artifactId}:${version}`);
  }
  const main = (g: string) => (g.startsWith(`${JAVA_MODULE}:`) ? 0 : 1);
  return [...found].sort((a, b) => main(a) - main(b) || a.localeCompare(b));
}

/** The artifact ids and versions of every jar or pom in a repository layout, for a message about what a fragment holds instead. */
function anyArtifacts(entries: Entry[]): string[] {
  const found = new Set<string>();
  for (const e of entries) {
    const parts = e.path.split('/');
    const file = parts.at(-1)!;
    if (e.kind !== 'file' || parts.length < 4 || !/\.(jar|pom)$/.test(file)) continue;
    const [artifactId, version] = parts.slice(-3) as [string, string];
    if (file.startsWith(`${artifactId}-`)) found.add(`${artifactId} ${version}`);
  }
  return [...found].sort();
}

export function javaBuild(entries: Entry[]): Build {
  if (entries.length === 0) throw new ArtifactError('the archive is empty');
  const hits = entries.flatMap((e) => {
    const m = e.kind === 'file' ? SPANNER_PATH.exec(e.path) : null;
    return m ? [{ root: m[1] ? `${m[1]}/` : '', version: m[2]!, file: m[3]!, entry: e }] : [];
  });
  if (hits.length === 0) {
    const other = anyArtifacts(entries);
    throw new ArtifactError(
      `the fragment holds no ${JAVA_MODULE} (expected com/google/cloud/google-cloud-spanner/<version>/ with its jar and pom, at the archive's root or under one folder)` +
        (other.length ? `; it holds ${list(other)}` : '; it holds no Maven artifacts at all'),
    );
  }
  const roots = [...new Set(hits.map((h) => h.root))];
  if (roots.length > 1) throw new ArtifactError(`the fragment holds ${JAVA_ARTIFACT} under several folders (${list(roots.map((r) => r || '(the root)'))}); a fragment is one repository`);
  const root = roots[0]!;
  if (root) {
    const outside = entries.find((e) => !e.path.startsWith(root) && e.path !== root.slice(0, -1));
    if (outside) throw new ArtifactError(`the entry ${quote(outside.path)} lies outside the repository folder ${quote(root)}; a fragment is one repository, at the archive's root or under one folder`);
  }
  const versions = [...new Set(hits.map((h) => h.version))].sort();
  if (versions.length > 1) throw new ArtifactError(`the fragment holds ${JAVA_ARTIFACT} at ${versions.length} versions (${list(versions)}); a candidate build is one version`);
  const v = versions[0]!;
  const dir = `${root}com/google/cloud/google-cloud-spanner/${v}/`;
  const files = new Set(hits.map((h) => h.file));
  // mvn install writes <artifactId>-<version>.jar; mvn deploy of a SNAPSHOT writes <artifactId>-<base>-<yyyyMMdd.HHmmss>-<n>.jar.
  let stem = `${JAVA_ARTIFACT}-${v}`;
  if (!(files.has(`${stem}.jar`) && files.has(`${stem}.pom`)) && v.endsWith('-SNAPSHOT')) {
    const stamped = new RegExp(`^${literal(JAVA_ARTIFACT)}-${literal(v.slice(0, -'-SNAPSHOT'.length))}-(\\d{8}\\.\\d{6})-(\\d+)\\.jar$`);
    const newest = [...files]
      .map((f) => stamped.exec(f))
      .filter((m): m is RegExpExecArray => m !== null && files.has(m[0].replace(/\.jar$/, '.pom')))
      .sort((a, b) => a[1]!.localeCompare(b[1]!) || Number(a[2]) - Number(b[2]))
      .at(-1);
    if (newest) stem = newest[0].replace(/\.jar$/, '');
  }
  for (const ext of ['jar', 'pom']) {
    if (!files.has(`${stem}.${ext}`)) throw new ArtifactError(`the fragment has no ${dir}${stem}.${ext}: ${JAVA_MODULE}'s jar and pom must both be in it`);
  }
  const pomPath = `${dir}${stem}.pom`;
  let pom: PomCoordinates;
  try {
    pom = pomCoordinates(fileAt(entries, pomPath)!.data.toString('utf8'));
  } catch (e) {
    throw new ArtifactError(`${pomPath} is not a readable pom (${(e as Error).message})`);
  }
  const groupId = pom.groupId ?? pom.parent.groupId;
  if (pom.artifactId !== JAVA_ARTIFACT || groupId !== JAVA_GROUP) {
    throw new ArtifactError(`${pomPath} declares ${groupId ?? '(no group)'}:${pom.artifactId ?? '(no artifact id)'}, not ${JAVA_MODULE}`);
  }
  const version = pom.version ?? pom.parent.version;
  if (!version) throw new ArtifactError(`${pomPath} gives no version, neither its own nor its parent's`);
  if (version.includes('${')) throw new ArtifactError(`${pomPath} gives its version as ${quote(version)}, a property; an installed or deployed pom carries the version itself`);
  if (!MAVEN_VERSION.test(version)) throw new ArtifactError(`${pomPath} gives the version ${quote(version)}, which is not a Maven version`);
  if (version !== v) throw new ArtifactError(`${pomPath} gives the version ${quote(version)} but lies in the folder of version ${quote(v)}`);
  return { module: JAVA_MODULE, version, format: 'maven-fragment', root, mavenArtifacts: jarArtifacts(entries, root) };
}

// ---- Go: a module zip, or a .tar.gz of the module's folder ------------------------------------

/** The module path a go.mod declares, or null. */
export function goModulePath(goMod: string): string | null {
  for (const raw of goMod.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    const m = /^module\s+(?:"([^"]+)"|`([^`]+)`|(\S+))$/.exec(line);
    if (m) return m[1] ?? m[2] ?? m[3]!;
  }
  return null;
}

function checkGoMod(entries: Entry[], goModPath: string): string {
  const goMod = fileAt(entries, goModPath);
  if (!goMod) throw new ArtifactError(`the archive has no ${goModPath}: a Go module's folder holds its go.mod`);
  const module = goModulePath(goMod.data.toString('utf8'));
  if (!module) throw new ArtifactError(`${goModPath} has no module line`);
  if (module === 'cloud.google.com/go') {
    throw new ArtifactError(
      `${goModPath} declares the module cloud.google.com/go (the repository's root module, from before Spanner had a module of its own), not ${GO_MODULE}; only ${GO_MODULE} builds are accepted`,
    );
  }
  if (module !== GO_MODULE) throw new ArtifactError(`${goModPath} declares the module ${quote(module)}, not ${GO_MODULE}`);
  return module;
}

export function goZipBuild(entries: Entry[]): Build {
  if (entries.length === 0) throw new ArtifactError('the archive is empty');
  const first = (entries.find((e) => e.kind === 'file') ?? entries[0]!).path;
  const m = /^(.+?@[^/]+)(?:\/|$)/.exec(first);
  if (!m) throw new ArtifactError(`the zip is not a Go module zip: its paths must start with <module>@<version>/ (e.g. ${GO_MODULE}@v1.2.3/), and the first is ${quote(first)}`);
  const prefix = m[1]!;
  const stray = entries.find((e) => !e.path.startsWith(`${prefix}/`) && !(e.kind === 'dir' && (e.path === prefix || prefix.startsWith(`${e.path}/`))));
  if (stray) throw new ArtifactError(`every path in a Go module zip starts with ${quote(`${prefix}/`)}, and ${quote(stray.path)} does not`);
  const at = prefix.lastIndexOf('@');
  const zipModule = prefix.slice(0, at);
  const version = prefix.slice(at + 1);
  const module = checkGoMod(entries, `${prefix}/go.mod`);
  if (zipModule !== module) throw new ArtifactError(`the zip's paths name the module ${quote(zipModule)} but its go.mod declares ${quote(module)}`);
  if (!GO_VERSION.test(version)) throw new ArtifactError(`the zip's paths give the version ${quote(version)}, which is not a Go module version (v1.2.3, v1.2.4-0.20240101000000-abcdef123456)`);
  return { module, version, format: 'go-module-zip', root: `${prefix}/` };
}

export function goTarBuild(entries: Entry[]): Build {
  if (entries.length === 0) throw new ArtifactError('the archive is empty');
  let root = '';
  if (!fileAt(entries, 'go.mod')) {
    const tops = topLevel(entries);
    if (tops.length !== 1 || !fileAt(entries, `${tops[0]}/go.mod`)) {
      throw new ArtifactError(`the archive has no go.mod at its root or under one top folder (its top-level entries: ${list(tops)}); a Go build is the module's folder with its go.mod`);
    }
    root = `${tops[0]}/`;
  }
  const module = checkGoMod(entries, `${root}go.mod`);
  return { module, version: GO_LOCAL_VERSION, format: 'go-module-tar', root };
}

// ---- Python: a wheel, as `python -m build` writes it ------------------------------------------

/** A version as PEP 440 normalizes it (3.71.0, 3.72.0rc1, 3.72.0.dev0, 3.71.0.post1, 3.71.0+local.1). */
const PEP440_VERSION = /^(0|[1-9]\d*)(\.(0|[1-9]\d*))*((a|b|rc)(0|[1-9]\d*))?(\.post(0|[1-9]\d*))?(\.dev(0|[1-9]\d*))?(\+[a-z0-9]+(\.[a-z0-9]+)*)?$/;
/** A wheel tag (python-abi-platform), as WHEEL's Tag lines give it. */
const WHEEL_TAG = /^[A-Za-z0-9_.]+-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+$/;
/** PEP 503's normal form of a distribution name: google_cloud.Spanner is google-cloud-spanner. */
const normalName = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/** The `Key: value` header lines of an email-style metadata file (METADATA, WHEEL), up to its body. */
function headers(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === '') break;
    const m = /^([A-Za-z0-9-]+):\s?(.*)$/.exec(line);
    if (m) out.push([m[1]!.toLowerCase(), m[2]!.trim()]);
  }
  return out;
}

/**
 * A wheel of google-cloud-spanner: its files at the archive's root, one <name>-<version>.dist-info
 * folder whose METADATA names the client and its version and whose WHEEL gives its tags. Refused: a
 * .data folder (scripts, headers or data installed outside site-packages) and a dependency given as a
 * URL (a candidate installs its dependencies from PyPI, as wheels, only). Nothing of a wheel runs when
 * pip installs it.
 */
export function pythonWheelBuild(entries: Entry[]): Build {
  if (entries.length === 0) throw new ArtifactError('the archive is empty');
  const infos = [...new Set(entries.map((e) => e.path.split('/')[0]!).filter((top) => top.endsWith('.dist-info')))].sort();
  if (infos.length !== 1) {
    throw new ArtifactError(
      infos.length
        ? `the wheel holds ${infos.length} .dist-info folders (${list(infos)}); a wheel is one distribution`
        : `the zip has no <name>-<version>.dist-info folder at its root (its top-level entries: ${list(topLevel(entries))}): it is not a wheel as python -m build writes it`,
    );
  }
  const info = infos[0]!;
  const data = entries.find((e) => e.path.split('/')[0]!.endsWith('.data'));
  if (data) throw new ArtifactError(`the wheel holds ${quote(data.path)}: a .data folder installs scripts or files outside site-packages, which a candidate build may not`);
  const metadata = fileAt(entries, `${info}/METADATA`);
  if (!metadata) throw new ArtifactError(`the wheel has no ${info}/METADATA`);
  const meta = headers(metadata.data.toString('utf8'));
  const one = (key: string) => meta.find(([k]) => k === key)?.[1];
  const name = one('name');
  if (!name || normalName(name) !== PYTHON_MODULE) throw new ArtifactError(`${info}/METADATA names the distribution ${name ? quote(name) : '(no Name)'}, not ${PYTHON_MODULE}`);
  const version = one('version');
  if (!version || !PEP440_VERSION.test(version))
    throw new ArtifactError(`${info}/METADATA gives the version ${version ? quote(version) : '(no Version)'}, which is not a PEP 440 version in its normal form (3.71.0, 3.72.0rc1, 3.72.0.dev0)`);
  const folder = info.slice(0, -'.dist-info'.length);
  const [folderName, folderVersion] = [folder.slice(0, folder.lastIndexOf('-')), folder.slice(folder.lastIndexOf('-') + 1)];
  if (normalName(folderName) !== PYTHON_MODULE || folderVersion !== version) throw new ArtifactError(`the folder ${quote(info)} does not match METADATA's ${PYTHON_MODULE} ${version}`);
  for (const [key, requirement] of meta) {
    // PEP 508: a direct reference is `name [extras] @ url`; a marker follows a semicolon.
    if (key === 'requires-dist' && requirement.split(';')[0]!.includes('@')) {
      throw new ArtifactError(`${info}/METADATA requires ${quote(requirement)}, a direct reference; a candidate installs its dependencies from PyPI only`);
    }
  }
  const wheel = fileAt(entries, `${info}/WHEEL`);
  if (!wheel) throw new ArtifactError(`the wheel has no ${info}/WHEEL`);
  const tags = headers(wheel.data.toString('utf8'))
    .filter(([k]) => k === 'tag')
    .map(([, v]) => v);
  const tag = tags[0];
  if (!tag || !tags.every((t) => WHEEL_TAG.test(t))) throw new ArtifactError(`${info}/WHEEL gives ${tag ? `the tags ${list(tags)}` : 'no Tag'}; a wheel names its python-abi-platform tags there`);
  if (!fileAt(entries, `${info}/RECORD`)) throw new ArtifactError(`the wheel has no ${info}/RECORD`);
  if (!fileAt(entries, 'google/cloud/spanner_v1/__init__.py')) throw new ArtifactError('the wheel has no google/cloud/spanner_v1/__init__.py: it does not hold the Spanner client');
  // One tag in the name, the others compressed into it as pip reads them (py2.py3-none-any).
  const [py, abi, platform] = [0, 1, 2].map((i) => [...new Set(tags.map((t) => t.split('-')[i]!))].join('.'));
  return { module: PYTHON_MODULE, version: semverOfPep440(version, info), format: 'python-wheel', root: '', wheelName: `${folderName.replace(/[-.]+/g, '_')}-${version}-${py}-${abi}-${platform}.whl` };
}

/**
 * A PEP 440 version as a spec writes a client's version (semver): X.Y.Z stays, what follows it becomes
 * the pre-release part (3.72.0.dev0 is 3.72.0-dev0, 3.72.0rc1 3.72.0-rc1, 3.71.0+pr12 3.71.0-pr12). Its
 * release must have three numbers, as every google-cloud-spanner release has.
 */
function semverOfPep440(version: string, info: string): string {
  const release = /^\d+\.\d+\.\d+(?=$|[^.\d]|\.[a-z])/.exec(version)?.[0];
  if (!release) throw new ArtifactError(`${info}/METADATA gives the version ${quote(version)}, whose release is not three numbers (X.Y.Z) as google-cloud-spanner's are`);
  const rest = version.slice(release.length).replace(/^[.+]/, '').replace(/\+/g, '.');
  return rest ? `${release}-${rest}` : release;
}
