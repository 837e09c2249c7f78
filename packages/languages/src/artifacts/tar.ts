// A small tar reader (ustar, pax extended headers, GNU long names) and writer. The reader only lists:
// it never touches the disk, checks each header's checksum and every size against the buffer, and
// counts entries and file bytes against the limits as it goes.
import { gzipSync } from 'node:zlib';
import { ArtifactError, countBytes, countEntry, type ArtifactLimits, type RawEntry } from './archive';

const BLOCK = 512;
/** Pax and GNU long-name headers are names and a few numbers: a megabyte is far beyond any real one. */
const MAX_META = 1024 * 1024;

function text(b: Buffer, start: number, len: number): string {
  const field = b.subarray(start, start + len);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? len : end).toString('utf8');
}

/** An octal field, or base-256 when its first byte has the high bit set (GNU, for large sizes). */
function number(b: Buffer, start: number, len: number, what: string, at: number): number {
  const field = b.subarray(start, start + len);
  if (field[0]! & 0x80) {
    if (field[0] === 0xff) throw new ArtifactError(`the tar header at byte ${at} has a negative ${what}`);
    let v = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) {
      v = v * 256 + field[i]!;
      if (!Number.isSafeInteger(v)) throw new ArtifactError(`the tar header at byte ${at} has a ${what} too large to read`);
    }
    return v;
  }
  const s = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^[\0 ]+/, '');
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) throw new ArtifactError(`the tar header at byte ${at} has a malformed ${what} (${JSON.stringify(s)})`);
  const v = parseInt(s, 8);
  if (!Number.isSafeInteger(v)) throw new ArtifactError(`the tar header at byte ${at} has a ${what} too large to read`);
  return v;
}

function checksumOk(h: Buffer, at: number): boolean {
  let stored: number;
  try {
    stored = number(h, 148, 8, 'checksum', at);
  } catch {
    return false;
  }
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const c = i >= 148 && i < 156 ? 0x20 : h[i]!;
    unsigned += c;
    signed += c > 127 ? c - 256 : c;
  }
  return stored === unsigned || stored === signed;
}

/** Pax records: "<length> <key>=<value>\n", the length counting the whole record. */
function paxRecords(data: Buffer, at: number): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < data.length) {
    if (data[i] === 0) break;
    const space = data.indexOf(0x20, i);
    const len = space === -1 ? NaN : Number(data.subarray(i, space).toString('latin1'));
    if (!Number.isSafeInteger(len) || len <= space - i + 1 || i + len > data.length || data[i + len - 1] !== 0x0a) {
      throw new ArtifactError(`the pax header at byte ${at} is malformed`);
    }
    const record = data.subarray(space + 1, i + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq <= 0) throw new ArtifactError(`the pax header at byte ${at} is malformed`);
    out.set(record.slice(0, eq), record.slice(eq + 1));
    i += len;
  }
  return out;
}

const KINDS: Record<string, RawEntry['kind']> = { '0': 'file', '\0': 'file', '7': 'file', '1': 'hardlink', '2': 'symlink', '3': 'char-device', '4': 'block-device', '5': 'dir', '6': 'fifo' };

/** Lists a tar's entries (uncompressed bytes). Throws ArtifactError for a malformed archive or one over the limits. */
export function readTar(tar: Buffer, limits: ArtifactLimits): RawEntry[] {
  const out: RawEntry[] = [];
  let off = 0;
  let total = 0;
  let pax = new Map<string, string>();
  let longName: string | undefined;
  let longLink: string | undefined;
  for (;;) {
    if (off + BLOCK > tar.length) {
      // No end-of-archive blocks: what tar itself accepts, as long as nothing is cut short.
      if (off === tar.length || (out.length > 0 && tar.subarray(off).every((b) => b === 0))) break;
      throw new ArtifactError(`the tar archive is cut short at byte ${off}`);
    }
    const h = tar.subarray(off, off + BLOCK);
    if (h.every((b) => b === 0)) break; // end of archive
    if (!checksumOk(h, off)) throw new ArtifactError(`the tar header at byte ${off} has a wrong checksum: the upload is not a tar archive or is damaged`);
    const type = String.fromCharCode(h[156]!);
    let entrySize = number(h, 124, 12, 'size', off);
    if (type !== 'x' && type !== 'g' && pax.has('size')) {
      entrySize = Number(pax.get('size'));
      if (!Number.isSafeInteger(entrySize) || entrySize < 0) throw new ArtifactError(`the pax header before byte ${off} has a malformed size`);
    }
    const start = off + BLOCK;
    if (start + entrySize > tar.length) throw new ArtifactError(`the tar archive is cut short: the entry at byte ${off} needs ${entrySize} bytes`);
    const data = tar.subarray(start, start + entrySize);
    const at = off;
    off = start + Math.ceil(entrySize / BLOCK) * BLOCK;
    if (type === 'x' || type === 'g' || type === 'L' || type === 'K') {
      if (entrySize > MAX_META) throw new ArtifactError(`the tar archive's extended header at byte ${at} is ${entrySize} bytes, too large`);
      if (type === 'x') pax = paxRecords(data, at);
      else if (type === 'g')
        paxRecords(data, at); // checked; global defaults (e.g. git archive's comment) change no path
      else if (type === 'L') longName = text(data, 0, data.length);
      else longLink = text(data, 0, data.length);
      continue;
    }
    countEntry(out.length + 1, limits);
    const magic = h.subarray(257, 263).toString('latin1');
    let name = pax.get('path') ?? longName ?? text(h, 0, 100);
    if (!pax.has('path') && longName === undefined && magic === 'ustar\0') {
      const prefix = text(h, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    const linkTarget = pax.get('linkpath') ?? longLink ?? text(h, 157, 100);
    let kind: RawEntry['kind'] = KINDS[type] ?? 'other';
    // Pre-POSIX archives mark folders by a trailing slash only.
    if (kind === 'file' && type !== '7' && name.endsWith('/') && entrySize === 0) kind = 'dir';
    if (kind === 'file') total = countBytes(total, entrySize, limits);
    out.push({
      name,
      kind,
      mode: number(h, 100, 8, 'mode', at) & 0o7777,
      data: kind === 'file' ? data : Buffer.alloc(0),
      ...(kind === 'symlink' || kind === 'hardlink' ? { linkTarget } : {}),
      ...(kind === 'other' ? { typeName: `tar type ${JSON.stringify(type)}` } : {}),
    });
    pax = new Map();
    longName = undefined;
    longLink = undefined;
  }
  return out;
}

/** One entry for tarOf; anything may be written (tests write hostile archives with it). */
export interface TarInput {
  path: string;
  type?: 'file' | 'dir' | 'symlink' | 'hardlink' | 'char-device' | 'block-device' | 'fifo';
  data?: Buffer | string;
  linkTarget?: string;
  /** Permission bits; default 0644 for files, 0755 for folders. */
  mode?: number;
}

const TYPE_FLAGS: Record<NonNullable<TarInput['type']>, string> = { file: '0', dir: '5', symlink: '2', hardlink: '1', 'char-device': '3', 'block-device': '4', fifo: '6' };

function header(name: string, type: string, size: number, mode: number, linkTarget = ''): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(mode.toString(8).padStart(7, '0') + '\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'latin1');
  h.write('00000000000\0', 136, 'latin1');
  h.write(type, 156, 'latin1');
  h.write(linkTarget, 157, 100, 'utf8');
  h.write('ustar\0' + '00', 257, 'latin1');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return h;
}

const pad = (n: number) => Buffer.alloc((BLOCK - (n % BLOCK)) % BLOCK);

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len = String(len).length + Buffer.byteLength(body);
  return `${len}${body}`;
}

/**
 * A tar archive of `entries` in order (mtime 0, owner 0). Names or link targets longer than 100 bytes
 * go in a pax header, or a GNU long-name entry with `longNames: 'gnu'`.
 */
export function tarOf(entries: TarInput[], { longNames = 'pax' }: { longNames?: 'pax' | 'gnu' } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? 'file';
    const data = type === 'file' ? Buffer.from(e.data ?? '') : Buffer.alloc(0);
    const name = type === 'dir' && !e.path.endsWith('/') ? e.path + '/' : e.path;
    const link = e.linkTarget ?? '';
    const long = Buffer.byteLength(name) > 100;
    const longLink = Buffer.byteLength(link) > 100;
    if (long || longLink) {
      if (longNames === 'gnu') {
        for (const [flag, value] of [long && ['L', name], longLink && ['K', link]].filter(Boolean) as [string, string][]) {
          const v = Buffer.from(value + '\0');
          parts.push(header('././@LongLink', flag, v.length, 0), v, pad(v.length));
        }
      } else {
        const v = Buffer.from((long ? paxRecord('path', name) : '') + (longLink ? paxRecord('linkpath', link) : ''));
        parts.push(header('PaxHeader', 'x', v.length, 0o644), v, pad(v.length));
      }
    }
    parts.push(header(Buffer.from(name).subarray(0, 100).toString('utf8'), TYPE_FLAGS[type], data.length, e.mode ?? (type === 'dir' ? 0o755 : 0o644), link.slice(0, 100)), data, pad(data.length));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/** tarOf, gzipped: what `tar czf` and `npm pack` upload. */
export function tarGz(entries: TarInput[], options?: { longNames?: 'pax' | 'gnu' }): Buffer {
  return gzipSync(tarOf(entries, options));
}
