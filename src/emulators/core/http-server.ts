import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomHex } from './ids.js';
import type { FaultDecision, SeededFaults } from './fault-profile.js';
import type { RequestQuota } from './quota.js';
import type { Fault, FaultInjector } from './faults.js';
import { HttpError, type EmulatorRequest, type EmulatorResponse, type Middleware } from './http-types.js';
import type { RequestLog } from './request-log.js';
import type { Router } from './router.js';

export interface HttpServerOptions {
  readonly router: Router;
  readonly log: RequestLog;
  /** One-shot faults; they win over the seeded profile (which then does not see the call). */
  readonly faults: FaultInjector;
  /** The seeded fault profile, when the emulator has one. */
  readonly seededFaults?: SeededFaults;
  /** The account's rate limit, when the emulator keeps one: calls over it get 429 with Retry-After. */
  readonly rateLimit?: RequestQuota;
  /** Whether a request creates an object (only creates can get an ambiguous fault). */
  readonly isCreate?: (method: string, path: string) => boolean;
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
  const entry = options.log.record(method, url.pathname + url.search, req.headers, parsed.ok ? parsed.value : raw);

  // Decided in arrival order, right after logging, so the n-th logged request got the n-th decision.
  const oneShot = options.faults.take(method, url.pathname, parsed.ok ? parsed.value : undefined);
  let plan: FaultPlan = { outcome: 'handle' };
  const overLimit = oneShot ? undefined : options.rateLimit?.take();
  if (oneShot) plan = oneShotPlan(oneShot, req.headers);
  else if (overLimit !== undefined) {
    const body = { message: `rate limit exceeded; retry after ${overLimit} s` };
    plan = { outcome: 'answer', response: { status: 429, body, headers: { 'Retry-After': String(overLimit) } } };
  } else {
    const decision = options.seededFaults?.decide(options.isCreate?.(method, url.pathname) ?? false);
    if (decision) {
      entry.injectedFault = decision.kind;
      plan = seededPlan(decision);
    }
  }

  if (plan.delayMs) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  if (plan.outcome === 'drop') {
    req.socket.destroy();
    return;
  }
  if (plan.outcome === 'answer') {
    send(res, plan.response);
    return;
  }
  const response = await handleNormally(options, { method, url, headers: req.headers, raw, parsed });
  if (plan.outcome === 'handle-then-drop') {
    req.socket.destroy();
    return;
  }
  send(res, response);
}

/** What a fault does to one request; `delayMs` comes first. */
type FaultPlan = { readonly delayMs?: number } & (
  | { readonly outcome: 'handle' }
  | { readonly outcome: 'answer'; readonly response: EmulatorResponse }
  /** Close the socket without handling the request. */
  | { readonly outcome: 'drop' }
  /** Handle the request (it takes effect), then close the socket instead of answering. */
  | { readonly outcome: 'handle-then-drop' }
);

function oneShotPlan(fault: Fault, headers: IncomingHttpHeaders): FaultPlan {
  const delay = fault.delayMs ? { delayMs: fault.delayMs } : {};
  if (fault.slow) return { ...delay, outcome: 'handle' };
  if (fault.ambiguous) return { ...delay, outcome: 'handle-then-drop' };
  if (fault.dropConnection) return { ...delay, outcome: 'drop' };
  return {
    ...delay,
    outcome: 'answer',
    response: {
      status: fault.status ?? 500,
      ...(fault.rawBody !== undefined
        ? { rawBody: fault.rawBody }
        : { body: fault.bodyFor ? fault.bodyFor(headers) : fault.body }),
      ...(fault.headers ? { headers: fault.headers } : {}),
    },
  };
}

const SERVER_ERRORS = [
  { status: 502, message: 'bad gateway' },
  { status: 503, message: 'service unavailable' },
  { status: 504, message: 'gateway timeout' },
] as const;

function seededPlan(decision: FaultDecision): FaultPlan {
  switch (decision.kind) {
    case 'rate-limit':
      return {
        outcome: 'answer',
        response: {
          status: 429,
          body: { message: `rate limit exceeded (injected fault); retry after ${decision.retryAfterSeconds} s` },
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        },
      };
    case 'server-error': {
      const { status, message } = SERVER_ERRORS[Math.floor(decision.variant * SERVER_ERRORS.length)]!;
      return { outcome: 'answer', response: { status, body: { message: `${message} (injected fault)` } } };
    }
    case 'drop':
      return { outcome: 'drop' };
    case 'slow':
      return { outcome: 'handle', delayMs: decision.slowMs };
    case 'ambiguous':
      return { outcome: 'handle-then-drop' };
  }
}

interface ReceivedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly parsed: { ok: true; value: unknown } | { ok: false };
}

/** Body checks, middleware, then the routed handler. */
async function handleNormally(options: HttpServerOptions, received: ReceivedRequest): Promise<EmulatorResponse> {
  const { method, url, headers, raw, parsed } = received;
  if (!parsed.ok) return { status: 400, body: { message: 'request body is not valid JSON' } };
  if (raw.length > 0 && !isJsonContentType(headers['content-type'])) {
    return { status: 415, body: { message: 'Content-Type must be application/json' } };
  }

  const request: EmulatorRequest = {
    method,
    path: url.pathname,
    params: {},
    query: url.searchParams,
    headers,
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
  return respondToErrors(() => run(0));
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
