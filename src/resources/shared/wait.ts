/**
 * Waiting for a long-running platform operation: poll an object until its phase reaches a target,
 * fail at once on a phase that is neither pending nor a target, give up after a time budget, and stop
 * promptly when the signal aborts (Terraform's StopProvider). Generic: the caller says how to fetch
 * the object and how to read its phase.
 */

export interface WaitSpec<T> {
  /** What is awaited, for messages: "cluster 1234 to become ready". */
  readonly what: string;
  /** Fetches the current form of the object. */
  refresh(signal: AbortSignal): Promise<T>;
  /** The object's phase, e.g. `CLUSTER_PHASE_HEALTHY`. */
  phaseOf(obj: T): string;
  /** Phases in which the operation is still running. */
  readonly pending: readonly string[];
  /** Phases in which the operation is done (subject to `isComplete`). */
  readonly target: readonly string[];
  /** An extra condition in a target phase (e.g. the endpoint is published); until it holds, keep polling. */
  isComplete?(obj: T): boolean;
  /** The platform's explanation of the current phase, for failure messages. */
  reasonOf?(obj: T): string;
  /** Total budget in milliseconds. */
  readonly timeoutMs: number;
  /** First poll interval; it grows by half each poll up to `maxIntervalMs`. */
  readonly intervalMs: number;
  readonly maxIntervalMs?: number;
  /** Aborts the wait (StopProvider). */
  readonly signal: AbortSignal;
  /** Called with each polled object, e.g. to log progress. */
  onPoll?(obj: T): void;
}

/** The object reached a phase that is neither pending nor a target. */
export class WaitFailedError<T> extends Error {
  override readonly name = 'WaitFailedError';
  constructor(
    readonly phase: string,
    readonly reason: string,
    readonly last: T,
    what: string,
  ) {
    super(
      `while waiting for ${what}, it entered phase ${phase}` +
        `${reason ? `: ${reason}` : ' (the platform gave no reason)'}`,
    );
  }
}

/** The budget ran out while the object was still pending. */
export class WaitTimeoutError<T> extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    readonly phase: string,
    readonly last: T | undefined,
    what: string,
    timeoutMs: number,
  ) {
    super(
      `gave up waiting for ${what} after ${formatBudget(timeoutMs)}; the last phase seen was ${phase || 'unknown'}`,
    );
  }
}

/** An AbortError, as `fetch` and timers raise it, so diagnostics say the provider was asked to stop. */
export function abortError(what: string): Error {
  const err = new Error(`stopped waiting for ${what}: Terraform asked the provider to stop`);
  err.name = 'AbortError';
  return err;
}

/** Polls until done; returns the last object seen (the one in a target phase). */
export async function waitFor<T>(spec: WaitSpec<T>): Promise<T> {
  const deadline = Date.now() + spec.timeoutMs;
  const maxInterval = spec.maxIntervalMs ?? spec.intervalMs;
  let interval = spec.intervalMs;
  let last: T | undefined;
  let phase = '';
  for (;;) {
    if (spec.signal.aborted) throw abortError(spec.what);
    try {
      last = await spec.refresh(spec.signal);
    } catch (err) {
      // A call cut short by the stop signal reports the stop, not the call's own error.
      if (spec.signal.aborted) throw abortError(spec.what);
      throw err;
    }
    spec.onPoll?.(last);
    phase = spec.phaseOf(last);
    if (spec.target.includes(phase)) {
      if (!spec.isComplete || spec.isComplete(last)) return last;
    } else if (!spec.pending.includes(phase)) {
      throw new WaitFailedError(phase, spec.reasonOf?.(last) ?? '', last, spec.what);
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new WaitTimeoutError(phase, last, spec.what, spec.timeoutMs);
    await sleep(Math.min(interval, remaining), spec.signal, spec.what);
    interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
  }
}

/** Resolves after `ms`, or rejects with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal, what = 'the operation'): Promise<void> {
  if (signal.aborted) return Promise.reject(abortError(what));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(what));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function formatBudget(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms % 1000 === 0) return `${ms / 1000} seconds`;
  return `${ms} ms`;
}
