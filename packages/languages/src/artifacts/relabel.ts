// Test support: a Maven repository fragment (.tar.gz) built from the local Maven repository, with
// published jars relabelled as another version, e.g. 6.105.0's relabelled 6.104.1-SNAPSHOT to stand in
// for a pull request's build (issue 37's Java gate test). The jars are copied unchanged; each pom's own
// version, its parent's and its dependencies' on the other relabelled artifacts are rewritten, and a
// .sha1 is written beside each file as `mvn deploy` does.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pomTexts, type PomText } from './pom';
import { tarGz, type TarInput } from './tar';

/** google-cloud-spanner and the sibling modules a java-spanner build installs at its version. */
export const JAVA_SPANNER_MODULES: readonly string[] = [
  'com.google.cloud:google-cloud-spanner',
  'com.google.api.grpc:proto-google-cloud-spanner-v1',
  'com.google.api.grpc:grpc-google-cloud-spanner-v1',
  'com.google.api.grpc:proto-google-cloud-spanner-admin-database-v1',
  'com.google.api.grpc:grpc-google-cloud-spanner-admin-database-v1',
  'com.google.api.grpc:proto-google-cloud-spanner-admin-instance-v1',
  'com.google.api.grpc:grpc-google-cloud-spanner-admin-instance-v1',
  'com.google.api.grpc:proto-google-cloud-spanner-executor-v1',
  'com.google.api.grpc:grpc-google-cloud-spanner-executor-v1',
];

export interface MavenFragmentOptions {
  /** The version whose jars and poms are taken from the repository. */
  from: string;
  /** The version they are labelled in the fragment; default `from` (a fragment of the release as it is). */
  to?: string;
  /**
   * groupId:artifactId of each artifact to take. Default: those of JAVA_SPANNER_MODULES the repository
   * holds at `from` (google-cloud-spanner must be among them).
   */
  artifacts?: readonly string[];
  /** The local Maven repository; default ~/.m2/repository. */
  repository?: string;
  /** A folder the fragment lies under in the archive (e.g. 'staging'); default its root. */
  topFolder?: string;
  /** A jar in place of the repository's, by groupId:artifactId (a slowed build's google-cloud-spanner). */
  jars?: Readonly<Record<string, Buffer>>;
}

const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
const is = (t: PomText, ...p: string[]) => t.path.length >= p.length && p.every((s, i) => t.path[t.path.length - p.length + i] === s);

/** A pom with `from` replaced by `to` where it is the version of the project, its parent or a dependency among `relabelled`. */
export function relabelPom(xml: string, from: string, to: string, relabelled: ReadonlySet<string>): string {
  const texts = pomTexts(xml);
  const ga = (parent: number) => {
    const g = texts.find((t) => t.parent === parent && t.path.at(-1) === 'groupId')?.value;
    const a = texts.find((t) => t.parent === parent && t.path.at(-1) === 'artifactId')?.value;
    return `${g}:${a}`;
  };
  const edits = texts.filter((t) => {
    if (t.value !== from || t.path.at(-1) !== 'version') return false;
    if (t.path.length === 2 && t.path[0] === 'project') return true;
    if (t.path.length === 3 && is(t, 'project', 'parent', 'version')) return relabelled.has(ga(t.parent));
    return is(t, 'dependency', 'version') && relabelled.has(ga(t.parent));
  });
  let out = xml;
  for (const t of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, t.start) + to + out.slice(t.end);
  return out;
}

/** The fragment as a .tar.gz. Throws Error when the repository lacks a jar or pom it needs. */
export function makeMavenFragment(options: MavenFragmentOptions): Buffer {
  const { from, to = from } = options;
  const repository = options.repository ?? path.join(os.homedir(), '.m2', 'repository');
  const dirOf = (ga: string, v: string) => {
    const [g, a] = ga.split(':') as [string, string];
    return path.join(...g.split('.'), a, v);
  };
  const file = (ga: string, v: string, ext: string) => path.join(dirOf(ga, v), `${ga.split(':')[1]}-${v}.${ext}`);
  const artifacts = options.artifacts ?? JAVA_SPANNER_MODULES.filter((ga) => existsSync(path.join(repository, file(ga, from, 'pom'))));
  for (const ga of artifacts) if (!/^[\w.-]+:[\w.-]+$/.test(ga)) throw new Error(`${JSON.stringify(ga)} is not groupId:artifactId`);
  const relabelled = new Set(artifacts);
  const top = options.topFolder ? `${options.topFolder.replace(/\/+$/, '')}/` : '';
  const entries: TarInput[] = [];
  for (const ga of artifacts) {
    for (const ext of ['pom', 'jar']) {
      const src = path.join(repository, file(ga, from, ext));
      if (!existsSync(src)) throw new Error(`the Maven repository ${repository} has no ${file(ga, from, ext)}`);
      let data = ext === 'jar' && options.jars?.[ga] ? options.jars[ga] : readFileSync(src);
      if (ext === 'pom' && to !== from) data = Buffer.from(relabelPom(data.toString('utf8'), from, to, relabelled));
      const dest = top + file(ga, to, ext).split(path.sep).join('/');
      entries.push({ path: dest, data }, { path: `${dest}.sha1`, data: sha1(data) });
    }
  }
  return tarGz(entries);
}
