/**
 * The API clients' own one-shot signals: a call's deadline, its stop grace, "stop or deadline".
 *
 * Node 20's AbortController makes an EventTarget, and registers each listener with weak-reference
 * bookkeeping. A sec API call made two or three of them and listened on each. Profiled over 2,000
 * reads, that was ~50 µs of CPU per call, more than its HTTP/1.1 exchange
 * (docs/benchmarks.md, "Refresh and plan against a Go provider (2026-11-23 to 2026-11-24)").
 *
 * A Cancellation offers the part of AbortSignal that the clients use (`SignalLike`), so code that
 * waits for a signal takes either: Terraform's stop stays an AbortSignal, and a Cancellation
 * listens to it.
 */

/** What the clients read of a signal; AbortSignal has it too. */
export interface SignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class Cancellation implements SignalLike {
  private abortedWith: { reason: unknown } | undefined;
  private listeners: Array<() => void> | undefined;

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  get reason(): unknown {
    return this.abortedWith?.reason;
  }

  /** Aborts once, calling each listener once; later calls change nothing, as AbortController's do. */
  abort(reason: unknown): void {
    if (this.abortedWith) return;
    this.abortedWith = { reason };
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** Like AbortSignal's: a listener added after the abort is never called. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.abortedWith) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }
}

/**
 * The listeners following each signal (followAbort), behind one listener of their own on it. Every
 * call listens to Terraform's stop, an AbortSignal, for as long as it runs; listening to it directly
 * cost an EventTarget registration and removal per call (~4 µs on Node 20).
 */
const followers = new WeakMap<SignalLike, Set<() => void>>();

/** Calls `listener` once when `signal` aborts, unless unfollowAbort comes first; `signal` has not aborted yet. */
export function followAbort(signal: SignalLike, listener: () => void): void {
  let listeners = followers.get(signal);
  if (listeners === undefined) {
    const all = new Set<() => void>();
    listeners = all;
    followers.set(signal, all);
    signal.addEventListener(
      'abort',
      () => {
        followers.delete(signal);
        for (const follower of all) follower();
      },
      { once: true },
    );
  }
  listeners.add(listener);
}

export function unfollowAbort(signal: SignalLike, listener: () => void): void {
  followers.get(signal)?.delete(listener);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal: SignalLike): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
