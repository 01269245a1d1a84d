/**
 * What Terraform's StopProvider (Ctrl-C) means for one API call, the same in both clients.
 *
 * Terraform asks the provider to stop and then waits for the RPCs in flight, saving whatever state
 * they return. A request that changes something and is already on the wire is therefore let
 * finish, for at most the stop grace: cutting it off would leave its effect (a new object, above
 * all) unknown to the state. Nothing is sent after the stop: no first attempt, no retry, no wait
 * between attempts. Reads on the wire are cut off at once; they change nothing.
 */

import { Cancellation, type SignalLike, followAbort, unfollowAbort } from './cancellation.js';

/** How long a changing request already sent may still take once Terraform asked the provider to stop. */
export const DEFAULT_STOP_GRACE_MS = 30_000;

/**
 * A signal that aborts `graceMs` after `stop` does, or when `deadline` (if given) does; `dispose`
 * releases its timer and listeners.
 */
export interface GraceSignal {
  readonly signal: SignalLike;
  dispose(): void;
}

export function graceAfter(stop: SignalLike | undefined, graceMs: number, deadline?: SignalLike): GraceSignal {
  const grace = new Cancellation();
  const onDeadline = (): void => grace.abort(deadline!.reason);
  if (deadline?.aborted) onDeadline();
  else deadline?.addEventListener('abort', onDeadline, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const start = (): void => {
    timer = setTimeout(() => grace.abort(new Error('stop grace over')), graceMs);
  };
  if (stop?.aborted) start();
  else if (stop) followAbort(stop, start);
  return {
    signal: grace,
    dispose() {
      if (stop) unfollowAbort(stop, start);
      deadline?.removeEventListener('abort', onDeadline);
      if (timer) clearTimeout(timer);
    },
  };
}

/** The message of a call that Terraform's stop kept from being sent (ApiError 'cancelled'). */
export const NOT_SENT_NOTE = 'Terraform asked the provider to stop before the request was sent, so it changed nothing';

/** Why a changing request's answer is unknown when the stop grace ran out. */
export function graceOverNote(graceMs: number): string {
  return (
    `Terraform asked the provider to stop and no answer came within the ${formatSeconds(graceMs)} the provider ` +
    `waits for requests already sent`
  );
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
