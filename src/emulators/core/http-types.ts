import type { IncomingHttpHeaders } from 'node:http';

/** A parsed request as handlers see it. */
export interface EmulatorRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** Values of `:name` segments of the matched route (decoded). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
}

/** What a handler answers; `body` is serialised as JSON unless `rawBody` is given. */
export interface EmulatorResponse {
  readonly status: number;
  readonly body?: unknown;
  /** Sent verbatim (tests use it to produce malformed responses). */
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Handler = (request: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>;

/** Runs before the handler (e.g. authentication); call `next` to continue. */
export type Middleware = (request: EmulatorRequest, next: () => Promise<EmulatorResponse>) => Promise<EmulatorResponse>;

/** Thrown by handlers and validators to answer with an error status and body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = { message },
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function json(status: number, body: unknown, headers?: Record<string, string>): EmulatorResponse {
  return headers ? { status, body, headers } : { status, body };
}

export function noContent(): EmulatorResponse {
  return { status: 204 };
}
