import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import type { AddressInfo } from 'node:net';
import { randomHex } from './ids.js';
import type { FaultDecision, SeededFaults } from './fault-profile.js';
import type { RequestQuota } from './quota.js';
import type { Fault, FaultInjector } from './faults.js';
import {
  applyLimits,
  headersTooLarge,
  httpLimits,
  nestsDeeperThan,
  serverOptions,
  type HttpLimits,
} from './http-limits.js';
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
  readonly rateLimit?: Pick<RequestQuota, 'take'>;
  /** Whether a request creates an object (only creates can get an ambiguous fault). */
  readonly isCreate?: (method: string, path: string) => boolean;
  /** Run in order before every routed handler. */
  readonly middleware?: readonly Middleware[];
  /** Bounds on what a client may send and how long it may take (./http-limits.ts); absent ones take their defaults. */
  readonly limits?: Partial<HttpLimits>;
  /** 0 or absent: any free port. */
  readonly port?: number;
  /** Default 127.0.0.1: the emulators are for local tests only. */
  readonly host?: string;
  /** The platform's clock: its answers are dated by it (HTTP's `Date`), as the times of its objects are. */
  readonly now?: () => number;
  /** How long every answer waits before it is sent, as a distant platform's round trip does (ms). */
  readonly latencyMs?: number;
}

export interface RunningHttpServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves a Router over node:http with JSON bodies, size limits, fault injection and a request log. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const limits = httpLimits(options.limits);
  const server = createServer(serverOptions(limits), (req, res) => {
    if (options.now) {
      res.sendDate = false;
      res.setHeader('Date', new Date(options.now()).toUTCString());
    }
    handle(options, limits, req, res).catch((error: unknown) => {
      process.stderr.write(`emulator: unhandled error: ${String(error)}\n`);
      if (!res.headersSent) send(res, { status: 500, body: { message: 'internal emulator error' } });
      else res.destroy();
    });
  });
  applyLimits(server, limits);
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

async function handle(
  options: HttpServerOptions,
  limits: HttpLimits,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const body = await readBody(req, limits);
  // The client is gone: nobody to answer, nothing to log.
  if (body.kind === 'aborted') return;
  const admitted = admit(req, body, limits);
  if ('refusal' in admitted) {
    options.log.record(method, admitted.path, req.headers, undefined);
    send(res, admitted.refusal);
    return;
  }
  const { url, bytes } = admitted;
  const raw = bytes.toString('utf8');
  const parsed = parseBody(bytes, limits.jsonDepth);
  const entry = options.log.record(
    method,
    url.pathname + url.search,
    req.headers,
    parsed.ok ? parsed.value : raw,
    bytes.length,
  );

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

  const delayMs = (plan.delayMs ?? 0) + (options.latencyMs ?? 0);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
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

type ParsedBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

interface ReceivedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly parsed: ParsedBody;
}

/** Body checks, middleware, then the routed handler. */
async function handleNormally(options: HttpServerOptions, received: ReceivedRequest): Promise<EmulatorResponse> {
  const { method, url, headers, raw, parsed } = received;
  if (!parsed.ok) return { status: 400, body: { message: parsed.message } };
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

type ReceivedBody =
  | { readonly kind: 'complete'; readonly bytes: Buffer }
  /** Larger than allowed; `drained` when it was read to its end (else the connection is to be closed). */
  | { readonly kind: 'too-large'; readonly drained: boolean }
  | { readonly kind: 'aborted' };

/** The whole body, or that it broke the size limit; oversized bytes are counted and dropped, never kept. */
function readBody(req: IncomingMessage, limits: HttpLimits): Promise<ReceivedBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limits.bodyBytes) chunks.push(chunk);
      else if (size > limits.bodyBytes + limits.bodyDrainBytes) {
        req.pause();
        resolve({ kind: 'too-large', drained: false });
      }
    });
    req.on('end', () =>
      resolve(
        size > limits.bodyBytes
          ? { kind: 'too-large', drained: true }
          : { kind: 'complete', bytes: Buffer.concat(chunks) },
      ),
    );
    // After 'end' these change nothing: a promise settles once.
    req.on('error', () => resolve({ kind: 'aborted' }));
    req.on('close', () => resolve({ kind: 'aborted' }));
  });
}

/** The target and body of a request within the limits, or the answer to one that is not. */
function admit(
  req: IncomingMessage,
  body: Exclude<ReceivedBody, { kind: 'aborted' }>,
  limits: HttpLimits,
): { url: URL; bytes: Buffer } | { path: string; refusal: EmulatorResponse } {
  const url = requestUrl(req.url ?? '/');
  const path = url ? url.pathname + url.search : (req.url ?? '');
  const refuse = (status: number, message: string, headers?: Record<string, string>) => ({
    path,
    refusal: { status, body: { message }, ...(headers ? { headers } : {}) },
  });
  if (!url) return refuse(400, 'the request target is not a valid URL path');
  // Node keeps one header more than the limit (http-limits.ts), so more than the limit means too many.
  if (req.rawHeaders.length / 2 > limits.headerCount) {
    return refuse(431, headersTooLarge(limits));
  }
  if (body.kind === 'too-large') {
    // A body not read to its end leaves the connection unusable: say so, and close it.
    const close = body.drained ? undefined : { Connection: 'close' };
    return refuse(413, `request body exceeds ${limits.bodyBytes} bytes`, close);
  }
  return { url, bytes: body.bytes };
}

function requestUrl(target: string): URL | undefined {
  try {
    return new URL(target, 'http://emulator.invalid');
  } catch {
    return undefined;
  }
}

function parseBody(bytes: Buffer, maxDepth: number): ParsedBody {
  // Decoding would silently replace broken sequences with U+FFFD; the platform refuses them.
  if (!isUtf8(bytes)) return { ok: false, message: 'request body is not valid UTF-8' };
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'request body is not valid JSON' };
  }
  if (nestsDeeperThan(value, maxDepth)) {
    return { ok: false, message: `request body nests arrays and objects deeper than ${maxDepth} levels` };
  }
  return { ok: true, value };
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
  // As the platform's front ends answer: with a length, not chunked.
  headers['Content-Length'] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
  res.writeHead(response.status, headers);
  res.end(payload);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
