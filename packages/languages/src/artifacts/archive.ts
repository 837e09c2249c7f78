// What an uploaded archive holds, checked before anything of it is written: the readers (tar.ts,
// zip.ts) turn bytes into raw entries under the limits; checkEntries turns those into safe relative
// paths of regular files and directories, or refuses the archive with a sentence naming the entry.
import { gunzipSync } from 'node:zlib';

export interface ArtifactLimits {
  /** The upload itself (the compressed archive). */
  maxBytes: number;
  /** Entries in the archive: files, directories and anything else it lists. */
  maxFiles: number;
  /** The files' contents once inflated, summed. */
  maxUnpackedBytes: number;
}

const MiB = 1024 * 1024;

/**
 * 200 MiB uploads (SCB_MAX_ARTIFACT_MB's default), 20,000 entries, 512 MiB unpacked: a Go module zip
 * may hold 500 MiB (golang.org/x/mod/zip), and real builds are far smaller (npm pack of the Node
 * client 9.0.0: 1.1 MB; the Go module v1.96.1: 7.6 MB; java-spanner 6.105.0's seven jars: 4.5 MB).
 * Inspection holds the inflated archive in memory, so this also bounds what one upload costs.
 */
export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = Object.freeze({ maxBytes: 200 * MiB, maxFiles: 20_000, maxUnpackedBytes: 512 * MiB });

/** An upload that is not an acceptable build; the message is a sentence for the user (a 400). */
export class ArtifactError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArtifactError';
  }
}

/** An entry as an archive lists it, before its name is checked. */
export interface RawEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'hardlink' | 'char-device' | 'block-device' | 'fifo' | 'other';
  /** What a link points at. */
  linkTarget?: string;
  /** Permission bits as the archive gives them (0 where it gives none). */
  mode: number;
  data: Buffer;
  /** For 'other': the archive's own word for the type, for the message. */
  typeName?: string;
}

/** An entry that passed every check: a relative path of plain components, a file or a directory. */
export interface Entry {
  path: string;
  kind: 'file' | 'dir';
  /** True when the archive marks the file executable by its owner. */
  executable: boolean;
  data: Buffer;
}

/** Human sizes for messages: bytes below 1 KiB, else KiB/MiB/GiB with at most one decimal. */
export function size(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1).replace(/\.0$/, '')} ${units[u]}`;
}

export function checkLimits(limits: ArtifactLimits): void {
  for (const k of ['maxBytes', 'maxFiles', 'maxUnpackedBytes'] as const) {
    if (!Number.isSafeInteger(limits[k]) || limits[k] <= 0) throw new TypeError(`artifact limit ${k} must be a positive integer, not ${limits[k]}`);
  }
}

/** Tells the upload's size against the limit, first of all. */
export function checkUploadSize(bytes: Buffer, limits: ArtifactLimits): void {
  if (!Buffer.isBuffer(bytes)) throw new TypeError('an artifact is a Buffer');
  if (bytes.length > limits.maxBytes) throw new ArtifactError(`the upload is ${size(bytes.length)}, over the limit of ${size(limits.maxBytes)} (SCB_MAX_ARTIFACT_MB)`);
  if (bytes.length === 0) throw new ArtifactError('the upload is empty');
}

export const isGzip = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
export const isZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));

/**
 * Inflates a gzip stream, stopping as soon as the output passes what a tar within the limits can be:
 * the files' bytes plus room for each entry's headers and padding (4 KiB each, far above what tar
 * writes). zlib stops at maxOutputLength while inflating, so a bomb never fills memory.
 */
export function gunzipBounded(bytes: Buffer, limits: ArtifactLimits): Buffer {
  const bound = limits.maxUnpackedBytes + limits.maxFiles * 4096 + MiB;
  try {
    return gunzipSync(bytes, { maxOutputLength: bound });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new ArtifactError(`the archive inflates to more than ${size(bound)}, past the limit of ${size(limits.maxUnpackedBytes)} unpacked; refused as a possible decompression bomb`);
    }
    throw new ArtifactError(`the upload is not a readable gzip file (${err.message.replace(/\.$/, '')})`);
  }
}

const MAX_PATH = 1024;
const MAX_COMPONENT = 255;

/** A quoted entry name for messages: control characters escaped, long names shortened. */
export function quote(name: string): string {
  const shown = JSON.stringify(name.length > 200 ? name.slice(0, 200) + '…' : name);
  return shown;
}

/**
 * The relative path of an entry's name: components split on '/', empty and '.' ones dropped.
 * Refuses absolute names, '..', backslashes, NUL and other control characters, and overlong names.
 */
export function safePath(name: string): string {
  if (name.includes('\0')) throw new ArtifactError(`the archive entry ${quote(name)} has a NUL character in its name`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\x01-\x1f\x7f]/.test(name)) throw new ArtifactError(`the archive entry ${quote(name)} has a control character in its name`);
  if (name.includes('\\')) throw new ArtifactError(`the archive entry ${quote(name)} has a backslash in its name (paths in an archive use /)`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new ArtifactError(`the archive entry ${quote(name)} has an absolute path`);
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new ArtifactError(`the archive entry ${quote(name)} has a ".." component, which would leave the folder it is unpacked into`);
  const p = parts.join('/');
  if (p.length > MAX_PATH || parts.some((c) => Buffer.byteLength(c) > MAX_COMPONENT)) throw new ArtifactError(`the archive entry ${quote(name)} has a name too long to unpack`);
  return p;
}

/** Where a link's target lands, relative to the archive's root; null when it leaves the tree. */
function linkLands(from: string, target: string): string | null {
  if (target.startsWith('/')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const c of target.split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(c);
  }
  return parts.join('/');
}

/**
 * Checks every entry and gives back the files and directories by their safe paths. Links of every
 * kind are refused (a build needs none, and refusing them all leaves nothing to follow on unpacking);
 * the message says whether the link leaves the tree. So are devices, FIFOs and unknown entry types,
 * duplicate paths, and a file that another entry uses as a directory.
 */
export function checkEntries(raw: RawEntry[]): Entry[] {
  const out: Entry[] = [];
  const kinds = new Map<string, 'file' | 'dir'>();
  for (const r of raw) {
    const p = safePath(r.name);
    switch (r.kind) {
      case 'file':
      case 'dir':
        break;
      case 'symlink': {
        const lands = linkLands(p, r.linkTarget ?? '');
        if (lands === null) throw new ArtifactError(`the archive entry ${quote(r.name)} is a symbolic link to ${quote(r.linkTarget ?? '')}, which leaves the archive's tree`);
        throw new ArtifactError(`the archive entry ${quote(r.name)} is a symbolic link (to ${quote(r.linkTarget ?? '')}); builds are accepted without links of any kind`);
      }
      case 'hardlink':
        throw new ArtifactError(`the archive entry ${quote(r.name)} is a hard link (to ${quote(r.linkTarget ?? '')}); builds are accepted without links of any kind`);
      case 'char-device':
      case 'block-device':
        throw new ArtifactError(`the archive entry ${quote(r.name)} is a device file; a build holds only files and folders`);
      case 'fifo':
        throw new ArtifactError(`the archive entry ${quote(r.name)} is a FIFO; a build holds only files and folders`);
      default:
        throw new ArtifactError(`the archive entry ${quote(r.name)} is of a type this server does not unpack (${r.typeName ?? 'unknown'}); a build holds only files and folders`);
    }
    if (p === '') {
      if (r.kind === 'dir') continue; // "./": the root itself
      throw new ArtifactError(`the archive has a file entry with an empty name (${quote(r.name)})`);
    }
    if (kinds.has(p)) throw new ArtifactError(`the archive lists ${quote(p)} twice`);
    kinds.set(p, r.kind);
    out.push({ path: p, kind: r.kind, executable: r.kind === 'file' && (r.mode & 0o100) !== 0, data: r.kind === 'file' ? r.data : Buffer.alloc(0) });
  }
  for (const e of out) {
    const parts = e.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (kinds.get(parent) === 'file') throw new ArtifactError(`the archive entry ${quote(e.path)} lies under ${quote(parent)}, which the archive also lists as a file`);
    }
  }
  return out;
}

/** Counts entries against maxFiles as a reader lists them, so a huge listing stops early. */
export function countEntry(n: number, limits: ArtifactLimits): void {
  if (n > limits.maxFiles) throw new ArtifactError(`the archive has more than ${limits.maxFiles} entries (the limit)`);
}

/** Adds a file's bytes to the running total against maxUnpackedBytes. */
export function countBytes(total: number, add: number, limits: ArtifactLimits): number {
  const t = total + add;
  if (t > limits.maxUnpackedBytes) throw new ArtifactError(`the archive's files add up to more than ${size(limits.maxUnpackedBytes)} unpacked (the limit)`);
  return t;
}
