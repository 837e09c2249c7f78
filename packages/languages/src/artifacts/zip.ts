// A small zip reader (the central directory, each entry's local header, stored and deflated data;
// no zip64, no encryption) and writer. Inflating is bounded by each entry's declared size, which is
// counted against the limits before any data is inflated, and the result must match that size and
// the entry's CRC-32: a header that lies about its size stops the inflation instead of trusting it.
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { ArtifactError, countBytes, countEntry, quote, type ArtifactLimits, type RawEntry } from './archive';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function findEnd(zip: Buffer): number {
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD && i + 22 + zip.readUInt16LE(i + 20) <= zip.length) return i;
  }
  throw new ArtifactError('the upload is not a readable zip file (no end of central directory)');
}

const S_IFMT = 0o170000;
const UNIX_KINDS = new Map<number, RawEntry['kind']>([
  [0o100000, 'file'],
  [0o040000, 'dir'],
  [0o120000, 'symlink'],
  [0o020000, 'char-device'],
  [0o060000, 'block-device'],
  [0o010000, 'fifo'],
]);

/** Lists a zip's entries with their inflated data. Throws ArtifactError for a malformed archive or one over the limits. */
export function readZip(zip: Buffer, limits: ArtifactLimits): RawEntry[] {
  const end = findEnd(zip);
  const disk = zip.readUInt16LE(end + 4);
  const cdDisk = zip.readUInt16LE(end + 6);
  const onDisk = zip.readUInt16LE(end + 8);
  const count = zip.readUInt16LE(end + 10);
  const cdSize = zip.readUInt32LE(end + 12);
  const cdOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ArtifactError('the zip file uses the zip64 extension, which this server does not read');
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) throw new ArtifactError('the zip file spans several disks, which this server does not read');
  if (cdOffset + cdSize > end) throw new ArtifactError('the zip file is damaged (its central directory lies outside the file)');
  countEntry(count, limits);

  const out: RawEntry[] = [];
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cdOffset + cdSize || zip.readUInt32LE(p) !== CENTRAL) throw new ArtifactError(`the zip file is damaged (central directory entry ${n + 1} is malformed)`);
    const madeBy = zip.readUInt16LE(p + 4);
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const compressed = zip.readUInt32LE(p + 20);
    const declared = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const external = zip.readUInt32LE(p + 38);
    const local = zip.readUInt32LE(p + 42);
    const nameBytes = zip.subarray(p + 46, p + 46 + nameLen);
    const name = nameBytes.toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    if (p > cdOffset + cdSize) throw new ArtifactError(`the zip file is damaged (central directory entry ${n + 1} is malformed)`);
    if (compressed === 0xffffffff || declared === 0xffffffff || local === 0xffffffff) throw new ArtifactError('the zip file uses the zip64 extension, which this server does not read');
    if (flags & 1) throw new ArtifactError(`the zip entry ${quote(name)} is encrypted`);

    const unix = madeBy >> 8 === 3 ? external >>> 16 : 0;
    let kind: RawEntry['kind'] = unix & S_IFMT ? (UNIX_KINDS.get(unix & S_IFMT) ?? 'other') : 'file';
    if (name.endsWith('/') || (madeBy >> 8 === 0 && external & 0x10)) kind = kind === 'file' ? 'dir' : kind;

    if (local + 30 > cdOffset || zip.readUInt32LE(local) !== LOCAL) throw new ArtifactError(`the zip file is damaged (the local header of ${quote(name)} is missing)`);
    const localNameLen = zip.readUInt16LE(local + 26);
    const localExtraLen = zip.readUInt16LE(local + 28);
    if (!zip.subarray(local + 30, local + 30 + localNameLen).equals(nameBytes)) {
      throw new ArtifactError(`the zip file is damaged or deceptive (the local header of ${quote(name)} names another file)`);
    }
    const dataStart = local + 30 + localNameLen + localExtraLen;
    if (dataStart + compressed > cdOffset) throw new ArtifactError(`the zip file is damaged (the data of ${quote(name)} runs past its end)`);
    const raw = zip.subarray(dataStart, dataStart + compressed);

    countEntry(out.length + 1, limits);
    let data: Buffer = Buffer.alloc(0);
    // A link's target is read only to say where it points (links are refused); a long one is not inflated.
    if (kind === 'file' || (kind === 'symlink' && declared <= 4096)) {
      if (kind === 'file') total = countBytes(total, declared, limits);
      if (method === 0) data = raw;
      else if (method === 8) {
        try {
          data = inflateRawSync(raw, { maxOutputLength: Math.max(declared, 1) });
        } catch (e) {
          const err = e as NodeJS.ErrnoException;
          if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
            throw new ArtifactError(`the zip entry ${quote(name)} inflates past the ${declared} bytes its header declares; refused as a possible decompression bomb`);
          }
          throw new ArtifactError(`the zip entry ${quote(name)} does not inflate (${err.message.replace(/\.$/, '')})`);
        }
      } else throw new ArtifactError(`the zip entry ${quote(name)} uses compression method ${method}; only stored and deflated entries are read`);
      if (data.length !== declared) throw new ArtifactError(`the zip entry ${quote(name)} holds ${data.length} bytes, not the ${declared} its header declares`);
      if (crc32(data) !== crc) throw new ArtifactError(`the zip entry ${quote(name)} fails its CRC-32 check: the file is damaged`);
    } else if (kind === 'dir' && declared !== 0) {
      throw new ArtifactError(`the zip entry ${quote(name)} is a folder with data in it`);
    }
    out.push({
      name,
      kind,
      mode: unix & 0o7777,
      data: kind === 'file' ? data : Buffer.alloc(0),
      ...(kind === 'symlink' ? { linkTarget: data.toString('utf8') } : {}),
      ...(kind === 'other' ? { typeName: `unix file type 0${(unix & S_IFMT).toString(8)}` } : {}),
    });
  }
  return out;
}

/** One entry for zipOf. */
export interface ZipInput {
  path: string;
  data?: Buffer | string;
  /** Default 'deflate'. */
  method?: 'store' | 'deflate';
  /** Unix st_mode (type and permission bits), e.g. 0o100644 or 0o120777 for a symlink; the entry is marked made on Unix. */
  unixMode?: number;
}

/** A zip file of `entries` in order, as Go's module zips are written (UTF-8 names, no folders unless listed). */
export function zipOf(entries: ZipInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.path);
    const data = Buffer.from(e.data ?? '');
    const method = e.method === 'store' || e.path.endsWith('/') ? 0 : 8;
    const body = method === 8 ? deflateRawSync(data) : data;
    const crc = crc32(data);
    const l = Buffer.alloc(30);
    l.writeUInt32LE(LOCAL, 0);
    l.writeUInt16LE(20, 4);
    l.writeUInt16LE(0x800, 6);
    l.writeUInt16LE(method, 8);
    l.writeUInt16LE(0x21, 12); // 1980-01-01
    l.writeUInt32LE(crc, 14);
    l.writeUInt32LE(body.length, 18);
    l.writeUInt32LE(data.length, 22);
    l.writeUInt16LE(name.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(CENTRAL, 0);
    c.writeUInt16LE(e.unixMode === undefined ? 20 : (3 << 8) | 20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt16LE(method, 10);
    c.writeUInt16LE(0x21, 14);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(e.unixMode === undefined ? 0 : (e.unixMode << 16) >>> 0, 38);
    c.writeUInt32LE(offset, 42);
    locals.push(l, name, body);
    centrals.push(c, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
