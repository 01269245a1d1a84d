/**
 * One back-off per API host, shared by every call the process makes to it
 * (docs/decisions.md, "One back-off per API host"): each client holds one gate, and a provider
 * process makes one client per API when Terraform configures it. When the platform says "slow
 * down" (HTTP 429, or 503 with Retry-After; gRPC RESOURCE_EXHAUSTED), no call to that host starts
 * before the Retry-After has passed, not only the call that was told; after it the process sends at
 * most 70% of the rate it was sending, and the allowed rate doubles every half second without a
 * refusal until it is back where it was (multiplicative decrease with the AWS SDKs' adaptive retry
 * mode's factor, and a recovery as quick as the cut). Before the first refusal nothing waits: the
 * gate costs a comparison per call.
 *
 * A refusal makes a round: refusals of calls sent before it (ten calls out at once are refused
 * together) are that round's, and neither pause nor cut again. A round while paced cuts the rate
 * again but does not pause every call: the pause is the first refusal's answer, the pacing the
 * answer to refusals that go on; a platform that refuses a share of calls at random would otherwise
 * hold the process still for a Retry-After at every round. Each refused call waits its own
 * Retry-After before it is sent again.
 *
 * Terraform runs ten operations at once per workspace; with a per-call retry, ten calls refused
 * together come back together after the same Retry-After and are refused together again.
 */
import { delay, type SignalLike } from './cancellation.js';

/** The rate after a refusal, as a share of the rate it cut (the AWS SDKs' adaptive mode's beta). */
const RATE_CUT = 0.7;
/** The lowest rate a cut leads to, in calls per second. */
const MIN_RATE = 1;
/**
 * Without a refusal, the allowed rate doubles every this many milliseconds. Measured (soak, 8
 * workspaces, a limit of 30 calls a second): at 500 ms the platform refused 0.152 calls per success,
 * at 1,000 ms 0.174, per-call retries 0.561; and where 4-7% of calls are refused at random (the fault
 * test) 500 ms costs 40 s where 1,000 ms cost 67 s and no gate 21 s.
 */
const DOUBLING_MS = 500;
/** After this long without a refusal the gate lets calls go unpaced again, whatever the rate. */
const QUIET_MS = 10_000;
/** The send rate is measured over the last second. */
const WINDOW_MS = 1000;

export interface GateLogger {
  debug(message: string, fields?: object): void;
}

export interface Refusal {
  /**
   * When the refused attempt was sent (the gate's clock): refusals of calls sent before the last cut
   * do not cut again.
   */
  readonly sentAt: number;
  /** The server's Retry-After, or the client's own back-off when it gave none. */
  readonly waitMs: number;
  /** What the server answered, for the log line (e.g. `HTTP 429`). */
  readonly answer: string;
}

export class HostGate {
  /** No call starts before this. */
  private resumeAt = 0;
  /**
   * Paced since a refusal: the rate the last cut allowed, when its growth began (the end of its
   * pause), and the rate to recover before pacing ends.
   */
  private pace: { readonly rate: number; readonly growsFrom: number; readonly recoverTo: number } | undefined;
  private lastRefusalAt = Number.NEGATIVE_INFINITY;
  /** When the last round began: refusals of calls sent before it belong to it, or to an earlier one. */
  private roundAt = Number.NEGATIVE_INFINITY;
  /** The start reserved for the next paced call. */
  private nextStart = 0;
  /** Start times within the last WINDOW_MS, oldest first, from `firstRecent` on. */
  private recentStarts: number[] = [];
  private firstRecent = 0;
  private told = false;

  constructor(
    /** The host as messages name it, e.g. `https://api.example.com`. */
    readonly host: string,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Waits until this host may be sent the next attempt; the signal ends the wait with its reason.
   * False, at once, when the attempt could not start by `latestStart` (the call's deadline).
   */
  async admit(signal?: SignalLike, latestStart = Number.POSITIVE_INFINITY): Promise<boolean> {
    for (;;) {
      const now = this.clock();
      const rate = this.allowedRate(now);
      let start = Math.max(now, this.resumeAt);
      if (rate !== undefined) start = Math.max(start, this.nextStart);
      if (start > latestStart) return false;
      if (rate !== undefined) this.nextStart = start + 1000 / rate;
      if (start > now) await delay(start - now, signal ?? NEVER);
      // A refusal that came during the wait moved the pause: queue again behind it.
      if (this.clock() >= this.resumeAt) {
        this.countStart(this.clock());
        return true;
      }
    }
  }

  /**
   * The platform declined an attempt sent at `refusal.sentAt`. A refusal of a call sent since the
   * last round began starts a new one: the rate is cut, and unless calls were paced already, every
   * call waits out the Retry-After.
   */
  refused(refusal: Refusal, logger?: GateLogger): void {
    const now = this.clock();
    // Sent before the last round began: that round has paused and cut for it already.
    if (refusal.sentAt < this.roundAt) return;
    this.roundAt = now;
    this.lastRefusalAt = now;
    // The first round pauses every call; later ones, while paced, cut the rate only.
    const pausing = this.allowedRate(now) === undefined;
    if (pausing) this.resumeAt = Math.max(this.resumeAt, now + refusal.waitMs);
    this.nextStart = Math.max(this.nextStart, this.resumeAt);
    // While paced, the cut is from what the gate allowed; before, from what the process was sending
    // (over a second with no pause in it: pacing outlasts a pause by a second at least).
    const from = this.allowedRate(now) ?? this.sendRate(now);
    const rate = Math.max(MIN_RATE, from * RATE_CUT);
    const recoverTo = this.pace?.recoverTo ?? Math.max(from, MIN_RATE);
    this.pace = { rate, growsFrom: Math.max(now, this.resumeAt), recoverTo };
    if (this.told) return;
    this.told = true;
    logger?.debug('API asked the provider to slow down: every call to this host waits, then goes at a lower rate', {
      host: this.host,
      answer: refusal.answer,
      waitMs: refusal.waitMs,
      callsPerSecond: Math.round(rate * 10) / 10,
    });
  }

  /** Calls per second allowed now; undefined when calls are not paced. */
  allowedRate(now: number = this.clock()): number | undefined {
    if (this.pace === undefined) return undefined;
    const { rate, growsFrom, recoverTo } = this.pace;
    const grown = rate * 2 ** (Math.max(0, now - growsFrom) / DOUBLING_MS);
    // Paced for a whole window at least, so that the next cut measures a second with no pause in it.
    const recovered = grown >= recoverTo && now - growsFrom >= WINDOW_MS;
    if (recovered || now - this.lastRefusalAt >= QUIET_MS) {
      this.pace = undefined;
      return undefined;
    }
    return grown;
  }

  private countStart(now: number): void {
    this.forgetStartsBefore(now - WINDOW_MS);
    this.recentStarts.push(now);
  }

  /** Attempts per second sent over the last second. */
  private sendRate(now: number): number {
    this.forgetStartsBefore(now - WINDOW_MS);
    return ((this.recentStarts.length - this.firstRecent) * 1000) / WINDOW_MS;
  }

  private forgetStartsBefore(time: number): void {
    while (this.firstRecent < this.recentStarts.length && this.recentStarts[this.firstRecent]! < time) {
      this.firstRecent++;
    }
    // Compacted now and then, so the list holds about one second of starts.
    if (this.firstRecent > 1024 && this.firstRecent * 2 > this.recentStarts.length) {
      this.recentStarts = this.recentStarts.slice(this.firstRecent);
      this.firstRecent = 0;
    }
  }
}

const NEVER: SignalLike = {
  aborted: false,
  reason: undefined,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
};
