import type { IncomingHttpHeaders } from 'node:http';

/**
 * Fault injection: the next matching request(s) get a canned answer instead of reaching the
 * handler (or, with `ambiguous`, reach it and lose the answer). Tests use it for 5xx/429 retries,
 * dropped connections, malformed bodies and creates whose outcome the client cannot know.
 */
export interface Fault {
  /** Matches any method when absent. */
  readonly method?: string;
  /** Exact path (without query) or a pattern tested against it. */
  readonly path: string | RegExp;
  /** HTTP status to answer with (ignored when `dropConnection`). */
  readonly status?: number;
  /** JSON body; `rawBody` wins when both are given. */
  readonly body?: unknown;
  readonly rawBody?: string;
  /** JSON body computed from the request headers (e.g. a server echoing what it was sent). */
  readonly bodyFor?: (headers: IncomingHttpHeaders) => unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Wait this long before answering (deadline tests). */
  readonly delayMs?: number;
  /**
   * After `delayMs`, the request is handled and answered as usual: a slow platform. It finishes
   * the work even when the client has gone away meanwhile, as a real API does. Answer options are ignored.
   */
  readonly slow?: boolean;
  /** Close the socket without answering (a connection reset as the client sees it). */
  readonly dropConnection?: boolean;
  /**
   * The request is handled as usual (a create takes effect), then the socket is closed without
   * answering: the client cannot tell whether it worked. Other answer options are ignored.
   */
  readonly ambiguous?: boolean;
  /** How many requests it applies to; default 1, `Infinity` for all. */
  readonly times?: number;
  /** Applies only to requests whose parsed JSON body this accepts (asked once per matching request). */
  readonly when?: (body: unknown) => boolean;
}

export class FaultInjector {
  private readonly pending: Array<{ fault: Fault; remaining: number }> = [];

  add(fault: Fault): void {
    this.pending.push({ fault, remaining: fault.times ?? 1 });
  }

  /** The first pending fault for this request, consuming one use of it. */
  take(method: string, path: string, body?: unknown): Fault | undefined {
    const index = this.pending.findIndex(({ fault }) => matches(fault, method, path) && (fault.when?.(body) ?? true));
    if (index < 0) return undefined;
    const entry = this.pending[index]!;
    entry.remaining--;
    if (entry.remaining <= 0) this.pending.splice(index, 1);
    return entry.fault;
  }

  clear(): void {
    this.pending.length = 0;
  }
}

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  return typeof fault.path === 'string' ? fault.path === path : fault.path.test(path);
}
