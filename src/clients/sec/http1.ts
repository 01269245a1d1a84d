/**
 * One HTTP/1.1 exchange on a connection the pool owns (./http-pool.ts): the request written in one
 * piece, the answer parsed as it arrives (status line, headers, a body by Content-Length, chunked or
 * up to the close). Informational (1xx) answers are skipped. It leaves node's ClientRequest and
 * IncomingMessage out of the way: the stream objects, parser hand-offs and ticks around them cost
 * ~250 µs of CPU per request, about as much as the request itself (README, "Benchmarks").
 */

/** What an answer was, once complete. */
export interface ParsedResponse {
  readonly statusCode: number;
  /** Names in lower case; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** The connection may carry another request. */
  readonly keepAlive: boolean;
  /** The server's Keep-Alive timeout hint, in seconds, if it gave one. */
  readonly keepAliveHintSeconds: number | undefined;
}

/** A malformed answer: the connection cannot be trusted with another request. */
export class HttpParseError extends Error {
  readonly code = 'ERR_SEC_HTTP_PARSE';
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
/** A head longer than this is refused (node's own limit is 16 KiB). */
const MAX_HEAD_BYTES = 64 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/;
/** Which Latin-1 characters a token may hold (RFC 9110 §5.6.2). */
const TOKEN_CHARS = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
  TOKEN_CHARS[c.charCodeAt(0)] = 1;

function isToken(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (TOKEN_CHARS[text.charCodeAt(i)] !== 1) return false;
  return true;
}
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The request's bytes. Header names must be tokens and values must hold no line breaks (a header
 * that could start another is refused, as node does).
 */
export function serializeRequest(
  method: string,
  path: string,
  host: string,
  headers: Readonly<Record<string, string>>,
  body: string | null,
): Buffer {
  if (!TOKEN.test(method)) throw new TypeError(`invalid HTTP method ${JSON.stringify(method)}`);
  if (!/^\/[\x21-\x7e]*$/.test(path)) throw new TypeError('request path holds characters not allowed in a URL');
  let head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) throw new TypeError(`invalid HTTP header name ${JSON.stringify(name)}`);
    // The value is not quoted: it may be a secret.
    if (!FIELD_VALUE.test(value)) throw new TypeError(`the value of HTTP header ${name} holds a control character`);
    head += `${name}: ${value}\r\n`;
  }
  const bodyBytes = body === null ? undefined : Buffer.from(body, 'utf8');
  if (bodyBytes) head += `Content-Length: ${bodyBytes.length}\r\n`;
  else if (method === 'POST' || method === 'PUT' || method === 'PATCH') head += 'Content-Length: 0\r\n';
  head += '\r\n';
  const headBytes = Buffer.from(head, 'latin1');
  return bodyBytes ? Buffer.concat([headBytes, bodyBytes]) : headBytes;
}

type BodyMode =
  | { kind: 'length'; remaining: number }
  | { kind: 'chunked'; state: 'size' | 'data' | 'data-end' | 'trailers'; remaining: number }
  | { kind: 'close' }
  | { kind: 'none' };

/** Parses one answer from the bytes the connection receives; push() says when it is complete. */
export class ResponseParser {
  private buffered: Buffer | undefined;
  private statusCode = 0;
  private headers: Record<string, string> = Object.create(null);
  private keepAlive = true;
  private body: BodyMode | undefined;
  private readonly chunks: Buffer[] = [];
  private bodyLength = 0;

  constructor(private readonly headRequest: boolean) {}

  /** True once the answer is complete; bytes beyond it are an error (nothing was pipelined). */
  push(chunk: Buffer): boolean {
    let data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    this.buffered = undefined;
    while (this.body === undefined) {
      const end = data.indexOf(HEADER_END);
      if (end < 0) {
        if (data.length > MAX_HEAD_BYTES) throw new HttpParseError('the answer headers are too large');
        this.buffered = data;
        return false;
      }
      this.parseHead(data.toString('latin1', 0, end));
      data = data.subarray(end + 4);
    }
    return this.pushBody(data);
  }

  /** The connection closed: complete when the body runs to the close; otherwise the answer was cut off. */
  closed(): boolean {
    return this.body?.kind === 'close';
  }

  result(): ParsedResponse {
    const hint = /(?:^|,)\s*timeout=(\d+)/i.exec(this.headers['keep-alive'] ?? '');
    return {
      statusCode: this.statusCode,
      headers: this.headers,
      body: this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.bodyLength),
      keepAlive: this.keepAlive && this.body?.kind !== 'close',
      keepAliveHintSeconds: hint ? Number(hint[1]) : undefined,
    };
  }

  private parseHead(head: string): void {
    const statusEnd = head.indexOf('\r\n');
    const status = STATUS_LINE.exec(statusEnd < 0 ? head : head.slice(0, statusEnd));
    if (!status) throw new HttpParseError('the answer does not start with an HTTP/1.x status line');
    const code = Number(status[2]);
    // No prototype: a header named like an Object property (constructor, __proto__) is just a header.
    const headers: Record<string, string> = Object.create(null);
    // Field by field with indexOf: this runs for every answer, and a split and a regular expression
    // per line cost more than the rest of the parse.
    for (let at = statusEnd < 0 ? head.length : statusEnd + 2; at < head.length; ) {
      let end = head.indexOf('\r\n', at);
      if (end < 0) end = head.length;
      const colon = head.indexOf(':', at);
      if (colon <= at || colon > end || !isToken(head, at, colon)) throw new HttpParseError('malformed answer header');
      const name = head.slice(at, colon).toLowerCase();
      const value = head.slice(colon + 1, end).trim();
      const previous = headers[name];
      headers[name] = previous === undefined ? value : `${previous}, ${value}`;
      at = end + 2;
    }
    if (code >= 100 && code < 200) return; // Informational: the real answer follows.
    this.statusCode = code;
    this.headers = headers;
    const connection = (headers.connection ?? '').toLowerCase();
    this.keepAlive = status[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    if (this.headRequest || code === 204 || code === 304) this.body = { kind: 'none' };
    else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? ''))
      this.body = { kind: 'chunked', state: 'size', remaining: 0 };
    else if (headers['content-length'] !== undefined) {
      const length = headers['content-length'];
      if (!/^\d{1,15}$/.test(length)) throw new HttpParseError('malformed Content-Length');
      this.body = { kind: 'length', remaining: Number(length) };
    } else this.body = { kind: 'close' };
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.chunks.push(piece);
    this.bodyLength += piece.length;
  }

  private pushBody(data: Buffer): boolean {
    const body = this.body!;
    switch (body.kind) {
      case 'none':
        if (data.length > 0) throw new HttpParseError('bytes after an answer without a body');
        return true;
      case 'close':
        this.take(data);
        return false;
      case 'length': {
        if (data.length > body.remaining) throw new HttpParseError('more body than Content-Length');
        this.take(data);
        body.remaining -= data.length;
        return body.remaining === 0;
      }
      case 'chunked':
        return this.pushChunked(body, data);
    }
  }

  private pushChunked(body: Extract<BodyMode, { kind: 'chunked' }>, input: Buffer): boolean {
    let data = input;
    while (data.length > 0 || body.state === 'data') {
      if (body.state === 'data') {
        const piece = data.subarray(0, body.remaining);
        this.take(piece);
        body.remaining -= piece.length;
        data = data.subarray(piece.length);
        if (body.remaining > 0) return false;
        body.state = 'data-end';
        continue;
      }
      const lineEnd = data.indexOf(CRLF);
      if (lineEnd < 0) {
        if (data.length > MAX_HEAD_BYTES) throw new HttpParseError('malformed chunked body');
        this.buffered = data;
        return false;
      }
      const line = data.toString('latin1', 0, lineEnd);
      data = data.subarray(lineEnd + 2);
      if (body.state === 'data-end') {
        if (line !== '') throw new HttpParseError('malformed chunked body');
        body.state = 'size';
      } else if (body.state === 'size') {
        const size = /^([0-9a-fA-F]{1,12})(?:\s*;.*)?$/.exec(line);
        if (!size) throw new HttpParseError('malformed chunk size');
        body.remaining = Number.parseInt(size[1]!, 16);
        body.state = body.remaining === 0 ? 'trailers' : 'data';
      } else if (line === '') {
        if (data.length > 0) throw new HttpParseError('bytes after the answer');
        return true;
      }
      // Otherwise a trailer field: not used.
    }
    return false;
  }
}
