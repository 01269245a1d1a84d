import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomHex } from './ids.js';
import type { FaultInjector } from './faults.js';
import {
  HttpError,
  type EmulatorRequest,
  type EmulatorResponse,
  type Middleware,
} from './http-types.js';
import type { RequestLog } from './request-log.js';
import type { Router } from './router.js';

export interface HttpServerOptions {
  readonly router: Router;
  readonly log: RequestLog;
  readonly faults: FaultInjector;
  /** Run in order before every routed handler. */
  readonly middleware?: readonly Middleware[];
  /** Bodies above this size are refused with 413. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** 0 or absent: any free port. */
  readonly port?: number;
  /** Default 127.0.0.1: the emulators are for local tests only. */
  readonly host?: string;
}

export interface RunningHttpServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Serves a Router over node:http with JSON bodies, size limits, fault injection and a request log. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      process.stderr.write(`emulator: unhandled error: ${String(error)}\n`);
      if (!res.headersSent) send(res, { status: 500, body: { message: 'internal emulator error' } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive clients would otherwise hold the server open.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handle(options: HttpServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const raw = await readBody(req, limit);
  if (raw === undefined) {
    options.log.record(method, url.pathname + url.search, req.headers, undefined);
    send(res, { status: 413, body: { message: `request body exceeds ${limit} bytes` } });
    return;
  }
  const parsed = parseJson(raw);
  options.log.record(method, url.pathname + url.search, req.headers, parsed.ok ? parsed.value : raw);

  const fault = options.faults.take(method, url.pathname);
  if (fault) {
    if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault.dropConnection) {
      req.socket.destroy();
      return;
    }
    send(res, {
      status: fault.status ?? 500,
      ...(fault.rawBody !== undefined
        ? { rawBody: fault.rawBody }
        : { body: fault.bodyFor ? fault.bodyFor(req.headers) : fault.body }),
      ...(fault.headers ? { headers: fault.headers } : {}),
    });
    return;
  }

  if (!parsed.ok) {
    send(res, { status: 400, body: { message: 'request body is not valid JSON' } });
    return;
  }
  if (raw.length > 0 && !isJsonContentType(req.headers['content-type'])) {
    send(res, { status: 415, body: { message: 'Content-Type must be application/json' } });
    return;
  }

  const request: EmulatorRequest = {
    method,
    path: url.pathname,
    params: {},
    query: url.searchParams,
    headers: req.headers,
    body: parsed.value,
  };
  // Middleware (authentication) runs before routing, so unknown paths are not revealed to
  // unauthenticated callers.
  const chain = [...(options.middleware ?? [])];
  const run = async (index: number): Promise<EmulatorResponse> => {
    const middleware = chain[index];
    if (middleware) return middleware(request, () => run(index + 1));
    return route(options.router, request);
  };
  send(res, await respondToErrors(() => run(0)));
}

async function route(router: Router, request: EmulatorRequest): Promise<EmulatorResponse> {
  const match = router.match(request.method, request.path);
  if (match.kind === 'not-found') {
    return { status: 404, body: { message: `no such resource: ${request.method} ${request.path}` } };
  }
  if (match.kind === 'method-not-allowed') {
    return {
      status: 405,
      body: { message: `method ${request.method} is not allowed on ${request.path}` },
      headers: { Allow: match.allowed.join(', ') },
    };
  }
  return match.handler({ ...request, params: match.params });
}

async function respondToErrors(produce: () => Promise<EmulatorResponse>): Promise<EmulatorResponse> {
  try {
    return await produce();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, body: error.body, headers: error.headers };
    throw error;
  }
}

/** The body as text, or undefined when it is larger than `limit` bytes. */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep draining so the client sees our 413 rather than a reset.
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  }
  return tooLarge ? undefined : Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/(.+\+)?json\b/i.test(value.trim());
}

function send(res: ServerResponse, response: EmulatorResponse): void {
  const headers: Record<string, string> = { 'X-Request-Id': randomHex(8), ...response.headers };
  let payload: string | undefined;
  if (response.rawBody !== undefined) payload = response.rawBody;
  else if (response.body !== undefined && response.status !== 204) payload = JSON.stringify(response.body);
  if (payload !== undefined && !hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json';
  res.writeHead(response.status, headers);
  res.end(payload);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
