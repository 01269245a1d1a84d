/**
 * One back-off per API host, shared by every call the process makes to it. When the platform says
 * "slow down" (HTTP 429, or 503 with Retry-After; gRPC RESOURCE_EXHAUSTED), every call to that host
 * waits out the pause, not only the call that was told; after it the process sends at most half the
 * rate that was refused, and the rate climbs back while no refusal comes (additive increase,
 * multiplicative decrease, as in the AWS SDKs' adaptive retry mode). Before the first refusal nothing
 * waits: the gate costs a comparison per call.
 *
 * Terraform runs ten operations at once per workspace; with a per-call retry, ten calls refused
 * together come back together after the same Retry-After and are refused together again.
 */
import { delay, type SignalLike } from './cancellation.js';

/** The rate after a refusal, as a share of the rate that was refused. */
const RATE_CUT = 0.5;
/** The lowest rate a cut leads to, in calls per second. */
const MIN_RATE = 0.5;
/** Growth of the allowed rate per second without a refusal, as a share of the rate set by the cut. */
const GROWTH_PER_SECOND = 0.1;
/** After this long without a refusal the gate lets calls go unpaced again. */
const QUIET_MS = 60_000;
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
  /** Paced since the last cut: the allowed rate then, and when the cut was. */
  private pace: { readonly rate: number; readonly cutAt: number } | undefined;
  private lastRefusalAt = -Infinity;
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
   * The platform declined an attempt sent at `refusal.sentAt`: every call waits, and the rate is cut
   * once per round.
   */
  refused(refusal: Refusal, logger?: GateLogger): void {
    const now = this.clock();
    this.lastRefusalAt = now;
    this.resumeAt = Math.max(this.resumeAt, now + refusal.waitMs);
    this.nextStart = Math.max(this.nextStart, this.resumeAt);
    // Answers to attempts sent before the last cut say nothing about the rate since.
    if (this.pace !== undefined && refusal.sentAt < this.pace.cutAt) return;
    const sending = Math.min(this.sendRate(now), this.allowedRate(now) ?? Number.POSITIVE_INFINITY);
    const rate = Math.max(MIN_RATE, sending * RATE_CUT);
    this.pace = { rate, cutAt: now };
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
    if (now - this.lastRefusalAt >= QUIET_MS) {
      this.pace = undefined;
      return undefined;
    }
    const { rate, cutAt } = this.pace;
    return rate * (1 + (GROWTH_PER_SECOND * Math.max(0, now - cutAt)) / 1000);
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

const gates = new Map<string, HostGate>();

/** The process's gate for this host (scheme, name and port), made on first use. */
export function hostGate(host: string): HostGate {
  let gate = gates.get(host);
  if (gate === undefined) {
    gate = new HostGate(host);
    gates.set(host, gate);
  }
  return gate;
}
