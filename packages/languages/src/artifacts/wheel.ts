// A Python wheel rewritten: some files changed, or its version changed (its .dist-info folder renamed
// and METADATA's Version replaced), with RECORD's hashes and sizes made again, as pip reads them. For
// the builds the product makes itself from a published wheel: a relabelled one (a version no index
// has, so a cell of it runs only from the upload) and a slowed one (issue 38's calibration).
import { createHash } from 'node:crypto';
import { DEFAULT_ARTIFACT_LIMITS, ArtifactError } from './archive';
import { readZip, zipOf, type ZipInput } from './zip';

/** RECORD's hash of a file: sha256, urlsafe base64 without padding (the wheel spec, PEP 376). */
const recordHash = (data: Buffer) => `sha256=${createHash('sha256').update(data).digest('base64url')}`;

export interface WheelRewrite {
  /** The new version (PEP 440), or the wheel's own. */
  version?: string;
  /** A file's new contents by its path in the wheel, or undefined to keep it. */
  change?: (path: string, data: Buffer) => Buffer | undefined;
}

/** The wheel with `rewrite` applied; throws ArtifactError where it is no wheel (no single .dist-info, no METADATA Version). */
export function rewriteWheel(whl: Buffer, rewrite: WheelRewrite): Buffer {
  const entries = readZip(whl, DEFAULT_ARTIFACT_LIMITS).filter((e) => e.kind === 'file');
  const infos = [...new Set(entries.map((e) => e.name.split('/')[0]!).filter((t) => t.endsWith('.dist-info')))];
  if (infos.length !== 1) throw new ArtifactError(`the wheel holds ${infos.length} .dist-info folders, not one`);
  const info = infos[0]!;
  const folder = info.slice(0, -'.dist-info'.length);
  const version = rewrite.version ?? folder.slice(folder.lastIndexOf('-') + 1);
  const newInfo = `${folder.slice(0, folder.lastIndexOf('-'))}-${version}.dist-info`;
  const record = `${newInfo}/RECORD`;
  const out: ZipInput[] = [];
  const lines: string[] = [];
  for (const e of entries) {
    if (e.name === `${info}/RECORD`) continue;
    let data = rewrite.change?.(e.name, e.data) ?? e.data;
    let name = e.name;
    if (name.startsWith(`${info}/`)) {
      name = newInfo + name.slice(info.length);
      if (name === `${newInfo}/METADATA`) {
        const text = data.toString('utf8');
        if (!/^Version: .*$/m.test(text)) throw new ArtifactError(`${info}/METADATA has no Version line`);
        data = Buffer.from(text.replace(/^Version: .*$/m, `Version: ${version}`));
      }
    }
    out.push({ path: name, data });
    lines.push(`${name},${recordHash(data)},${data.length}`);
  }
  lines.push(`${record},,`);
  out.push({ path: record, data: `${lines.join('\n')}\n` });
  return zipOf(out);
}
