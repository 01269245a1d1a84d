/**
 * HPACK (RFC 7541), what an HTTP/2 server needs: a decoder for the header blocks clients send (static
 * and dynamic tables, Huffman-coded strings, table size updates) and an encoder for the few fixed
 * header blocks a gRPC server answers with (literals that never touch the client's dynamic table, so
 * there is no encoder state to keep in step).
 */

/** A decoding failure: the connection cannot go on (RFC 7540 §4.3, COMPRESSION_ERROR). */
export class CompressionError extends Error {}

/** RFC 7541 Appendix A. Entry i is index i + 1. */
const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ...[
    'accept-charset',
    'accept-encoding',
    'accept-language',
    'accept-ranges',
    'accept',
    'access-control-allow-origin',
    'age',
    'allow',
    'authorization',
    'cache-control',
    'content-disposition',
    'content-encoding',
    'content-language',
    'content-length',
    'content-location',
    'content-range',
    'content-type',
    'cookie',
    'date',
    'etag',
    'expect',
    'expires',
    'from',
    'host',
    'if-match',
    'if-modified-since',
    'if-none-match',
    'if-range',
    'if-unmodified-since',
    'last-modified',
    'link',
    'location',
    'max-forwards',
    'proxy-authenticate',
    'proxy-authorization',
    'range',
    'referer',
    'refresh',
    'retry-after',
    'server',
    'set-cookie',
    'strict-transport-security',
    'transfer-encoding',
    'user-agent',
    'vary',
    'via',
    'www-authenticate',
  ].map((name): [string, string] => [name, name === 'accept-encoding' ? 'gzip, deflate' : '']),
];

/**
 * RFC 7541 Appendix B, as each symbol's code length ('A' = 5 bits, 'B' = 6, …; symbol 256 is EOS).
 * The code is canonical: ordered by length and then by symbol, each code is the previous one plus
 * one, shifted left by the growth in length; so the lengths determine every code.
 */
const HUFFMAN_CODE_LENGTHS =
  'ISXXXXXXXTZXXZXXXXXXXXZXXXXXXXXXBFFHIBDGFFDGDBBBAAABBBBBBBCDKBHFIBCCCCCCCCCCCCCCCCCCCCCCDCDIOIJBKABABABBBACCBBBA' +
  'BCBAABCCCCCKGJIXPRPPRRRSRSSSSSTSTTRSTSSSSQRSRSSTRQPRRSSQSRRTQRSSQQRQSRSSPRRRSRRSVVPORSRUVVVWWVTUOQVWWVWTQQVVXWWWPT' +
  'PQRQQSRRUUTTVSVWVVWWWWWXWWWWWVZ';
const EOS = 256;

/** Canonical decoding tables: per length, the first code, and where its symbols start in SYMBOLS. */
interface HuffmanTables {
  firstCode: Int32Array;
  firstIndex: Int32Array;
  count: Int32Array;
  symbols: Uint16Array;
}
let huffman: HuffmanTables | undefined;

function huffmanTables(): HuffmanTables {
  if (huffman) return huffman;
  const lengths = [...HUFFMAN_CODE_LENGTHS].map((c) => c.charCodeAt(0) - 65 + 5);
  const symbols = Uint16Array.from(
    lengths.map((_, symbol) => symbol).sort((a, b) => lengths[a]! - lengths[b]! || a - b),
  );
  const firstCode = new Int32Array(32);
  const firstIndex = new Int32Array(32);
  const count = new Int32Array(32);
  for (const length of lengths) count[length]!++;
  let code = 0;
  let index = 0;
  for (let length = 1; length < 32; length++) {
    firstCode[length] = code;
    firstIndex[length] = index;
    code = (code + count[length]!) * 2;
    index += count[length]!;
  }
  huffman = { firstCode, firstIndex, count, symbols };
  return huffman;
}

function huffmanDecode(bytes: Buffer, start: number, end: number): string {
  const { firstCode, firstIndex, count, symbols } = huffmanTables();
  const out: number[] = [];
  let code = 0;
  let length = 0;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      code = (code << 1) | ((byte >> bit) & 1);
      length++;
      const offset = code - firstCode[length]!;
      if (offset >= 0 && offset < count[length]!) {
        const symbol = symbols[firstIndex[length]! + offset]!;
        if (symbol === EOS) throw new CompressionError('Huffman string holds EOS');
        out.push(symbol);
        code = 0;
        length = 0;
      } else if (length >= 30) throw new CompressionError('invalid Huffman code');
    }
  }
  // Padding: fewer than 8 bits, all ones (the most significant bits of EOS).
  if (length > 7 || code !== (1 << length) - 1) throw new CompressionError('invalid Huffman padding');
  return Buffer.from(out).toString('latin1');
}

/** Size of an entry in the dynamic table (RFC 7541 §4.1); names and values are Latin-1 here. */
const entrySize = (name: string, value: string) => name.length + value.length + 32;

export class HpackDecoder {
  /** Newest first. */
  private readonly dynamic: Array<readonly [string, string]> = [];
  private size = 0;
  private maxSize: number;

  /** @param settingsMaxSize our SETTINGS_HEADER_TABLE_SIZE: the most a size update may ask for. */
  constructor(private readonly settingsMaxSize = 4096) {
    this.maxSize = settingsMaxSize;
  }

  /** The fields of one complete header block, in order. Header names and values are Latin-1. */
  decode(block: Buffer): Array<[string, string]> {
    const fields: Array<[string, string]> = [];
    let at = 0;
    const integer = (prefixBits: number): number => {
      const mask = (1 << prefixBits) - 1;
      let value = block[at++]! & mask;
      if (value < mask) return value;
      for (let shift = 0; ; shift += 7) {
        if (at >= block.length) throw new CompressionError('truncated integer');
        if (shift > 28) throw new CompressionError('integer too large');
        const byte = block[at++]!;
        value += (byte & 0x7f) * 2 ** shift;
        if ((byte & 0x80) === 0) return value;
      }
    };
    const string = (): string => {
      if (at >= block.length) throw new CompressionError('truncated string');
      const huffmanCoded = (block[at]! & 0x80) !== 0;
      const length = integer(7);
      if (at + length > block.length) throw new CompressionError('truncated string');
      const start = at;
      at += length;
      return huffmanCoded ? huffmanDecode(block, start, at) : block.toString('latin1', start, at);
    };
    const entry = (index: number): readonly [string, string] => {
      if (index >= 1 && index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1]!;
      const found = this.dynamic[index - STATIC_TABLE.length - 1];
      if (index === 0 || !found) throw new CompressionError(`no header table entry ${index}`);
      return found;
    };
    let fieldSeen = false;
    while (at < block.length) {
      const first = block[at]!;
      if (first & 0x80) {
        const [name, value] = entry(integer(7));
        fields.push([name, value]);
      } else if (first & 0x40) {
        const index = integer(6);
        const name = index === 0 ? string() : entry(index)[0];
        const value = string();
        fields.push([name, value]);
        this.insert(name, value);
      } else if (first & 0x20) {
        // A table size update comes only before the block's first field (RFC 7541 §4.2).
        if (fieldSeen) throw new CompressionError('table size update after a header field');
        const size = integer(5);
        if (size > this.settingsMaxSize) throw new CompressionError(`table size update beyond ${this.settingsMaxSize}`);
        this.maxSize = size;
        this.evict(0);
        continue;
      } else {
        // Literal without indexing (0000xxxx) or never indexed (0001xxxx): 4-bit name index.
        const index = integer(4);
        const name = index === 0 ? string() : entry(index)[0];
        fields.push([name, string()]);
      }
      fieldSeen = true;
    }
    return fields;
  }

  private insert(name: string, value: string): void {
    const size = entrySize(name, value);
    this.evict(size);
    if (size > this.maxSize) return; // A too-large entry empties the table and is not added.
    this.dynamic.unshift([name, value]);
    this.size += size;
  }

  /** Drops the oldest entries until `room` more fits. */
  private evict(room: number): void {
    while (this.size + room > this.maxSize && this.dynamic.length > 0) {
      const [name, value] = this.dynamic.pop()!;
      this.size -= entrySize(name, value);
    }
  }
}

function encodeInteger(out: number[], firstByteFlags: number, prefixBits: number, value: number): void {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    out.push(firstByteFlags | value);
    return;
  }
  out.push(firstByteFlags | max);
  let rest = value - max;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/**
 * A header block of literal fields without indexing (RFC 7541 §6.2.2), names by static index where
 * there is one, strings as plain octets (values must be Latin-1, as HTTP/2 field values are).
 * `:status: 200` is the static entry 8.
 */
export function encodeHeaderBlock(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  const out: number[] = [];
  for (const [name, value] of fields) {
    if (name === ':status' && value === '200') {
      out.push(0x88);
      continue;
    }
    const nameIndex = STATIC_TABLE.findIndex(([staticName]) => staticName === name) + 1;
    encodeInteger(out, 0x00, 4, nameIndex);
    if (nameIndex === 0) {
      encodeInteger(out, 0x00, 7, name.length);
      for (let i = 0; i < name.length; i++) out.push(name.charCodeAt(i) & 0xff);
    }
    const valueBytes = Buffer.from(value, 'latin1');
    encodeInteger(out, 0x00, 7, valueBytes.length);
    for (const byte of valueBytes) out.push(byte);
  }
  return Buffer.from(out);
}
