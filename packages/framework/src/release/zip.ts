/**
 * Zip archives for the release, written so that the same files give the same bytes: entries in byte
 * order of their names, one fixed time, fixed modes, no directory entries, no extra fields; and read
 * back with yauzl by the tests and the handshake benchmark.
 *
 * Written by the small writer below over node:zlib rather than yazl (which is deterministic too with a
 * fixed mtime and forceDosTimestamp): every archive carries the same 94 MiB Node runtime, and yazl
 * compresses each entry each time (6.9 s a copy at level 6 here, four copies a release), while this
 * writer deflates each distinct content once per process (`deflated`). Measured on a busy machine: the
 * whole release in 84 s with yazl at level 9, 31 s with this writer at level 9.
 *
 * No directory entries: Terraform's `h1:` hash of an archive (dirhash.HashZip) counts every entry, a
 * directory as an empty file, while the hash of the unpacked package (dirhash.HashDir) counts files
 * only; with directory entries the two would differ and the lock file would not match the install.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';

export interface ZipEntry {
  /** Path inside the archive, with `/` separators. */
  readonly name: string;
  readonly data: Buffer;
  readonly executable: boolean;
}

/** 1980-01-01 00:00 in MS-DOS date and time fields: the first time they can hold. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** Version made by: Unix (3), zip 2.0; version needed: 2.0 (deflate). */
const MADE_BY = (3 << 8) | 20;
const NEEDED = 20;
/** General purpose flag bit 11: names are UTF-8. */
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;

interface Deflated {
  readonly crc: number;
  readonly compressed: Buffer;
}
/** Compressed contents by their SHA-256, so the same file in several archives is deflated once. */
const deflated = new Map<string, Deflated>();

function deflateOnce(data: Buffer): Deflated {
  const key = createHash('sha256').update(data).digest('hex');
  let result = deflated.get(key);
  if (!result) {
    // zlib's default level: the Node runtime deflates to 35.2 MiB in 6.9 s; level 9 saves 0.2 MiB for twice the time.
    result = { crc: crc32(data), compressed: deflateRawSync(data, { level: 6 }) };
    deflated.set(key, result);
  }
  return result;
}

/** Writes `entries` to `file` deterministically (see the header). */
export function writeZip(file: string, entries: readonly ZipEntry[]): void {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of sorted) {
    const name = Buffer.from(entry.name, 'utf8');
    const { crc, compressed } = deflateOnce(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(NEEDED, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY, 4);
    header.writeUInt16LE(NEEDED, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(DEFLATE, 10);
    header.writeUInt16LE(DOS_TIME, 12);
    header.writeUInt16LE(DOS_DATE, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressed.length, 20);
    header.writeUInt32LE(entry.data.length, 24);
    header.writeUInt16LE(name.length, 28);
    // Extra field, comment, disk number, internal attributes: none.
    header.writeUInt32LE(((entry.executable ? 0o100755 : 0o100644) << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, compressed);
    central.push(header, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  if (offset + centralSize >= 0xffffffff || sorted.length >= 0xffff)
    throw new Error(`${file}: too large for a zip without Zip64`);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(sorted.length, 8);
  end.writeUInt16LE(sorted.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(file, Buffer.concat([...parts, ...central, end]));
}

export interface ReadEntry {
  readonly name: string;
  readonly data: Buffer;
  /** Unix mode bits from the entry's external attributes. */
  readonly mode: number;
  /** The CRC-32 and size of the contents, as the archive records them. */
  readonly crc32: number;
  readonly size: number;
}

/**
 * Every entry of a zip file, in archive order (directories included, if any); with `wanted`, only the
 * entries it names are inflated (the others have empty `data`).
 */
export function readZip(file: string, wanted: (name: string) => boolean = () => true): Promise<ReadEntry[]> {
  return readEntries(file, wanted);
}

/** The names and modes of a zip file's entries, without inflating them (`data` is empty). */
export function listZip(file: string): Promise<ReadEntry[]> {
  return readEntries(file, () => false);
}

function readEntries(file: string, wanted: (name: string) => boolean): Promise<ReadEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, decodeStrings: true }, (openError, zip) => {
      if (openError) return reject(openError);
      const entries: ReadEntry[] = [];
      const fail = (error: Error) => {
        zip.close();
        reject(error);
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        const mode = (entry.externalFileAttributes >>> 16) & 0o177777;
        const about = { name: entry.fileName, mode, crc32: entry.crc32, size: entry.uncompressedSize };
        if (!wanted(entry.fileName)) {
          entries.push({ ...about, data: Buffer.alloc(0) });
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return fail(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', fail);
          stream.on('end', () => {
            entries.push({ ...about, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/**
 * Unpacks a zip file into `dir` (created), keeping the executable bits, as `terraform init` does, and
 * writing 32 KiB at a time as its io.Copy does: a file written in one call lands in the page cache in
 * large folios, which a process mapping the Node runtime then counts whole in its RSS (+21 MiB of peak
 * RSS measured for the same executable), so the handshake benchmark would not see what Terraform runs.
 */
export async function unpackZip(file: string, dir: string): Promise<ReadEntry[]> {
  const entries = await readZip(file);
  const chunk = 32 * 1024;
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const target = join(dir, ...entry.name.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    const fd = openSync(target, 'w');
    try {
      for (let at = 0; at < entry.data.length; at += chunk)
        writeSync(fd, entry.data, at, Math.min(chunk, entry.data.length - at));
    } finally {
      closeSync(fd);
    }
    chmodSync(target, entry.mode & 0o777 || 0o644);
  }
  return entries;
}
