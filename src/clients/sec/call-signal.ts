import { ApiError } from '../../wire/api-error.js';
import { NOT_SENT_NOTE } from '../stop.js';

/**
 * The caller's stop and the call's deadline, apart (a changing request on the wire outlives the stop) and as one
 * signal.
 */
export interface CallSignal {
  /** Terraform's stop, as the caller passed it: nothing more is sent once it aborts. */
  readonly stop: AbortSignal | undefined;
  /** Aborts when the call's deadline passes. */
  readonly deadline: AbortSignal;
  /** Stop or deadline, whichever comes first: for waits between attempts and for reads. */
  readonly signal: AbortSignal;
  /** The call's deadline, in milliseconds from its start. */
  readonly timeoutMs: number;
  /**
   * If the call was stopped by this signal, the matching ApiError (timeout, or cancelled: never
   * sent), otherwise undefined.
   */
  abortError(operation: string): ApiError | undefined;
  dispose(): void;
}

export function callSignal(timeoutMs: number, caller: AbortSignal | undefined): CallSignal {
  // Two controllers and one listener rather than AbortSignal.any, whose bookkeeping (weak
  // references, a finalization registry) cost node 20 more than the rest of a call's signals.
  const deadline = new AbortController();
  const either = caller ? new AbortController() : deadline;
  const timer = setTimeout(() => {
    const reason = new Error('deadline exceeded');
    deadline.abort(reason);
    either.abort(reason);
  }, timeoutMs);
  const onStop = (): void => either.abort(caller!.reason);
  if (caller?.aborted) onStop();
  else caller?.addEventListener('abort', onStop, { once: true });
  return {
    stop: caller,
    deadline: deadline.signal,
    signal: either.signal,
    timeoutMs,
    abortError(operation) {
      if (caller?.aborted) return new ApiError(NOT_SENT_NOTE, { code: 'cancelled', operation });
      if (deadline.signal.aborted) {
        return new ApiError(`no answer within ${timeoutMs} ms`, { code: 'timeout', operation });
      }
      return undefined;
    },
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onStop);
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
