// Uploaded client builds (issue 37): read, checked and unpacked per language, with nothing written
// before every entry has passed. Formats:
// - node: the gzip tarball `npm pack` writes (one top folder, package/, whose package.json names
//   @google-cloud/spanner); dependencies must be registry ranges.
// - java: a .tar.gz Maven repository fragment (as `mvn install` or `mvn deploy` to a file repository
//   writes it), at the archive's root or under one folder, with com/google/cloud/google-cloud-spanner/
//   <version>/'s jar and pom; the version is the pom's (its own, or its parent's).
// - go: a module zip (golang.org/x/mod/zip: every path under <module>@<version>/) or a .tar.gz of the
//   module's folder (go.mod at the root or under one folder; version GO_LOCAL_VERSION).
// - python: a wheel (.whl, a zip) of google-cloud-spanner as `python -m build` writes it; the version is
//   its METADATA's; no .data folder, no dependency given as a URL.
// Links of every kind are refused, as are devices, FIFOs, absolute paths, '..', backslashes, control
// characters, duplicates, and archives over the limits (inflation is bounded while it runs).
import { createHash } from 'node:crypto';
import type { Language } from '@scb/shared/job';
import { ArtifactError, checkEntries, checkLimits, checkUploadSize, DEFAULT_ARTIFACT_LIMITS, gunzipBounded, isGzip, isZip, type ArtifactLimits, type Entry, type RawEntry } from './archive';
import { goTarBuild, goZipBuild, javaBuild, nodeBuild, pythonWheelBuild, type ArtifactFormat, type Build } from './builds';
import { readTar } from './tar';
import { writeEntries } from './unpack';
import { readZip } from './zip';

export { ArtifactError, DEFAULT_ARTIFACT_LIMITS, type ArtifactLimits } from './archive';
export { GO_LOCAL_VERSION, GO_MODULE, JAVA_MODULE, NODE_MODULE, PYTHON_MODULE, type ArtifactFormat } from './builds';
export { JAVA_SPANNER_MODULES, makeMavenFragment, type MavenFragmentOptions } from './relabel';
export {
  GO_SLOWED_FUNCTIONS,
  NODE_SLOWED_METHODS,
  nodeDelaySnippet,
  publishedNodeTarball,
  publishedPythonWheel,
  PYTHON_SLOWED_METHODS,
  pythonDelaySnippet,
  slowedGoBuild,
  slowedNodeBuild,
  slowedPythonBuild,
  type SlowedBuild,
} from './slowed';
export { rewriteWheel, type WheelRewrite } from './wheel';
export { tarGz, tarOf, type TarInput } from './tar';
export { zipOf, type ZipInput } from './zip';

export interface ArtifactInfo {
  language: Language;
  /** '@google-cloud/spanner' | 'com.google.cloud:google-cloud-spanner' | 'cloud.google.com/go/spanner' | 'google-cloud-spanner'. */
  module: string;
  /**
   * Read from the build: package.json's version; the pom's <version> (e.g. 6.104.1-SNAPSHOT); the Go
   * zip's <module>@<version> prefix, or GO_LOCAL_VERSION ('v0.0.0-local') for a Go .tar.gz, whose
   * folder carries no version (its label says which build it is); a wheel's METADATA Version in semver
   * form (3.72.0.dev0 is 3.72.0-dev0).
   */
  version: string;
  format: ArtifactFormat;
  /** Regular files in the build, and their bytes summed. */
  files: number;
  unpackedBytes: number;
  /**
   * Java only: every Maven artifact in the fragment that has a jar, as groupId:artifactId:version,
   * com.google.cloud:google-cloud-spanner first (the runner adds them all as dependencies and resolves
   * them from the fragment). Pom-only artifacts (a parent pom, a BOM) are left out: they are no
   * dependency, though Maven finds them in the fragment when a pom refers to them.
   */
  mavenArtifacts?: string[];
  /** Python only: the file name pip takes the wheel under (<distribution>-<version>-<tags>.whl). */
  wheelName?: string;
}

/** The artifact's id: 'sha256:<64 hex>' of its bytes, so the same upload has the same id. */
export function artifactId(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

const LANGUAGES = ['node', 'java', 'go', 'python'];

function entriesOf(language: Language, bytes: Buffer, limits: ArtifactLimits): { raw: RawEntry[]; zip: boolean } {
  const kind = isGzip(bytes) ? 'a gzip file' : isZip(bytes) ? 'a zip file' : 'neither gzip nor zip';
  switch (language) {
    case 'node':
      if (!isGzip(bytes)) throw new ArtifactError(`a Node build is the .tgz that npm pack writes (a gzip-compressed tar), and this upload is ${kind}`);
      return { raw: readTar(gunzipBounded(bytes, limits), limits), zip: false };
    case 'java':
      if (!isGzip(bytes)) throw new ArtifactError(`a Java build is a Maven repository fragment as a .tar.gz, and this upload is ${kind}`);
      return { raw: readTar(gunzipBounded(bytes, limits), limits), zip: false };
    case 'go':
      if (isZip(bytes)) return { raw: readZip(bytes, limits), zip: true };
      if (isGzip(bytes)) return { raw: readTar(gunzipBounded(bytes, limits), limits), zip: false };
      throw new ArtifactError('a Go build is a module .zip (the Go module zip format) or a .tar.gz of the module folder, and this upload is neither gzip nor zip');
    case 'python':
      if (!isZip(bytes)) throw new ArtifactError(`a Python build is a wheel (.whl, a zip file) as python -m build writes it, and this upload is ${kind}`);
      return { raw: readZip(bytes, limits), zip: true };
    default:
      throw new ArtifactError(`builds of ${JSON.stringify(language)} clients cannot be uploaded (only ${LANGUAGES.join(', ')})`);
  }
}

/** Every check, in memory: the build's facts and its entries relative to its root. */
function examine(language: Language, bytes: Buffer, limits: ArtifactLimits): { info: ArtifactInfo; entries: Entry[] } {
  checkLimits(limits);
  checkUploadSize(bytes, limits);
  const { raw, zip } = entriesOf(language, bytes, limits);
  const checked = checkEntries(raw);
  const build: Build =
    language === 'node' ? nodeBuild(checked) : language === 'java' ? javaBuild(checked) : language === 'python' ? pythonWheelBuild(checked) : zip ? goZipBuild(checked) : goTarBuild(checked);
  const entries = checked.filter((e) => e.path.startsWith(build.root) && e.path !== build.root).map((e) => ({ ...e, path: e.path.slice(build.root.length) }));
  const files = entries.filter((e) => e.kind === 'file');
  return {
    info: {
      language,
      module: build.module,
      version: build.version,
      format: build.format,
      files: files.length,
      unpackedBytes: files.reduce((n, e) => n + e.data.length, 0),
      ...(build.mavenArtifacts && { mavenArtifacts: build.mavenArtifacts }),
      ...(build.wheelName && { wheelName: build.wheelName }),
    },
    entries,
  };
}

/** Reads and checks an uploaded build without writing anything. Throws ArtifactError with the reason. */
export function inspectArtifact(language: Language, bytes: Buffer, limits: ArtifactLimits = DEFAULT_ARTIFACT_LIMITS): ArtifactInfo {
  return examine(language, bytes, limits).info;
}

/**
 * Checks the build as inspectArtifact does, then writes its root's contents into `dir` (which must not
 * exist or be empty): for node the package's folder (package.json at dir/package.json), for java the
 * Maven repository (dir/com/google/cloud/...), for go the module's folder (dir/go.mod). Regular files
 * (0644, or 0755 when executable by their owner in the archive) and folders (0755) only, each created
 * anew without following links. Throws ArtifactError before anything is written.
 */
export function unpackArtifact(language: Language, bytes: Buffer, dir: string, limits: ArtifactLimits = DEFAULT_ARTIFACT_LIMITS): ArtifactInfo {
  const { info, entries } = examine(language, bytes, limits);
  writeEntries(entries, dir);
  return info;
}
