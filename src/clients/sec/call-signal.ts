import { ApiError } from '../errors.js';

/** The caller's cancellation and the call's deadline, as one signal. */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** The call's deadline, in milliseconds from its start. */
  readonly timeoutMs: number;
  /**
   * If the call was stopped by this signal, the matching ApiError (timeout or cancelled),
   * otherwise undefined.
   */
  abortError(operation: string): ApiError | undefined;
  dispose(): void;
}

export function callSignal(timeoutMs: number, caller: AbortSignal | undefined): CallSignal {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('deadline exceeded')), timeoutMs);
  const signal = caller ? AbortSignal.any([caller, deadline.signal]) : deadline.signal;
  return {
    signal,
    timeoutMs,
    abortError(operation) {
      if (caller?.aborted) return new ApiError('the request was cancelled', { code: 'cancelled', operation });
      if (deadline.signal.aborted) {
        return new ApiError(`no answer within ${timeoutMs} ms`, { code: 'timeout', operation });
      }
      return undefined;
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}

/** Waits for `promise` but gives up (with the signal's reason) when `signal` aborts first. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
