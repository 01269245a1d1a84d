import { ApiError } from '@keel/provider-framework/client';
import { Cancellation, type SignalLike, followAbort, unfollowAbort } from '../cancellation.js';
import { NOT_SENT_NOTE } from '../stop.js';

/**
 * The caller's stop and the call's deadline, apart (a changing request on the wire outlives the stop) and as one
 * signal.
 */
export interface CallSignal {
  /** Terraform's stop, as the caller passed it: nothing more is sent once it aborts. */
  readonly stop: AbortSignal | undefined;
  /** Aborts when the call's deadline passes. */
  readonly deadline: SignalLike;
  /** Stop or deadline, whichever comes first: for waits between attempts and for reads. */
  readonly signal: SignalLike;
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
  // Cancellations, not AbortControllers or AbortSignal.any, and the caller's stop followed through one
  // listener shared by every call (../cancellation.ts): no EventTarget work per call.
  const deadline = new Cancellation();
  const either = caller ? new Cancellation() : deadline;
  const timer = setTimeout(() => {
    const reason = new Error('deadline exceeded');
    deadline.abort(reason);
    either.abort(reason);
  }, timeoutMs);
  const onStop = (): void => either.abort(caller!.reason);
  if (caller?.aborted) onStop();
  else if (caller) followAbort(caller, onStop);
  return {
    stop: caller,
    deadline,
    signal: either,
    timeoutMs,
    abortError(operation) {
      if (caller?.aborted) return new ApiError(NOT_SENT_NOTE, { code: 'cancelled', operation });
      if (deadline.aborted) {
        return new ApiError(`no answer within ${timeoutMs} ms`, { code: 'timeout', operation });
      }
      return undefined;
    },
    dispose() {
      clearTimeout(timer);
      if (caller) unfollowAbort(caller, onStop);
    },
  };
}

/** Waits for `promise` but gives up (with the signal's reason) when `signal` aborts first. */
export function raceSignal<T>(promise: Promise<T>, signal: SignalLike): Promise<T> {
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
