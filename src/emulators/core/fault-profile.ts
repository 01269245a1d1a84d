/**
 * Seeded fault injection shared by both emulators: a share of API calls, chosen by a small PRNG,
 * gets one fault kind; each server turns the kind into its own wire behaviour (HTTP status codes
 * and dropped sockets for sec, gRPC status codes for vdb).
 *
 * Determinism: every call the profile sees draws the same number of values from the PRNG, so the
 * fault given to the n-th call depends only on the seed, n, and whether that call is a create.
 * Same seed + same sequence of calls = same faults. Calls running concurrently may reach the
 * emulator in a different order from one run to the next, and then the faults land on different
 * calls even though the sequence of decisions is the same.
 */

export const FAULT_KINDS = ['rate-limit', 'server-error', 'drop', 'slow', 'ambiguous'] as const;

/**
 * - rate-limit: HTTP 429 with Retry-After; gRPC RESOURCE_EXHAUSTED with `retry-after` trailing metadata.
 * - server-error: HTTP 502, 503 or 504; gRPC UNAVAILABLE.
 * - drop: the connection is lost before the request is handled (HTTP: socket closed; gRPC: UNAVAILABLE).
 * - slow: the answer is delayed by `slowMs`, then given normally.
 * - ambiguous: creates only; the request takes effect, then the answer is lost.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultProfileOptions {
  /** Unsigned 32-bit integer. */
  readonly seed: number;
  /** Share of calls faulted, 0..1. */
  readonly rate: number;
  /** Default: every kind. */
  readonly kinds?: readonly FaultKind[];
  /** Sent with rate-limit faults. Default 1. */
  readonly retryAfterSeconds?: number;
  /** Delay of slow faults. Default 300. */
  readonly slowMs?: number;
}

export interface FaultProfileSettings {
  readonly seed: number;
  readonly rate: number;
  readonly kinds: readonly FaultKind[];
  readonly retryAfterSeconds: number;
  readonly slowMs: number;
}

/** The fault one call gets. */
export interface FaultDecision {
  readonly kind: FaultKind;
  readonly retryAfterSeconds: number;
  readonly slowMs: number;
  /** A further draw in [0, 1) for a choice within the kind (e.g. which 5xx status). */
  readonly variant: number;
}

export interface FaultStats {
  /** Calls the profile decided on (while one was set). */
  readonly calls: number;
  /** Calls that got a fault. */
  readonly injected: number;
  readonly byKind: Readonly<Record<FaultKind, number>>;
}

export const DEFAULT_RETRY_AFTER_SECONDS = 1;
export const DEFAULT_SLOW_MS = 300;
const MAX_SECONDS = 3600;
const MAX_SLOW_MS = 600_000;

/** An option that does not validate; `problem` reads after the option's name ("must be ..."). */
export interface FaultProfileProblem {
  readonly option: keyof FaultProfileOptions;
  readonly problem: string;
  readonly value: unknown;
}

export class FaultProfileError extends Error {
  override readonly name = 'FaultProfileError';
  constructor(readonly problem: FaultProfileProblem) {
    super(`fault profile: ${problem.option} ${problem.problem}, got ${shown(problem.value)}`);
  }
}

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}

/** The first problem with these options, if any (the CLI reports it under the flag's name). */
export function faultProfileProblem(options: FaultProfileOptions): FaultProfileProblem | undefined {
  const { seed, rate, kinds, retryAfterSeconds, slowMs } = options;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    return { option: 'seed', problem: 'must be an integer from 0 to 4294967295', value: seed };
  }
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
    return { option: 'rate', problem: 'must be a number from 0 to 1', value: rate };
  }
  if (kinds !== undefined) {
    if (kinds.length === 0)
      return { option: 'kinds', problem: `must name at least one of ${FAULT_KINDS.join(', ')}`, value: kinds };
    const unknown = kinds.find((kind) => !(FAULT_KINDS as readonly string[]).includes(kind));
    if (unknown !== undefined) {
      return { option: 'kinds', problem: `must be among ${FAULT_KINDS.join(', ')}`, value: unknown };
    }
    const repeated = kinds.find((kind, index) => kinds.indexOf(kind) !== index);
    if (repeated !== undefined) return { option: 'kinds', problem: 'must not repeat a kind', value: repeated };
  }
  if (
    retryAfterSeconds !== undefined &&
    (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0 || retryAfterSeconds > MAX_SECONDS)
  ) {
    // Retry-After carries whole seconds.
    return {
      option: 'retryAfterSeconds',
      problem: `must be a whole number of seconds from 0 to ${MAX_SECONDS}`,
      value: retryAfterSeconds,
    };
  }
  if (slowMs !== undefined && (!Number.isInteger(slowMs) || slowMs < 0 || slowMs > MAX_SLOW_MS)) {
    return {
      option: 'slowMs',
      problem: `must be a whole number of milliseconds from 0 to ${MAX_SLOW_MS}`,
      value: slowMs,
    };
  }
  return undefined;
}

/** Validated options with defaults applied; throws FaultProfileError. */
export function faultProfileSettings(options: FaultProfileOptions): FaultProfileSettings {
  const problem = faultProfileProblem(options);
  if (problem) throw new FaultProfileError(problem);
  return {
    seed: options.seed,
    rate: options.rate,
    // In the canonical order, so the kind a draw picks does not depend on how the list was written.
    kinds: FAULT_KINDS.filter((kind) => (options.kinds ?? FAULT_KINDS).includes(kind)),
    retryAfterSeconds: options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
    slowMs: options.slowMs ?? DEFAULT_SLOW_MS,
  };
}

/** One line for logs, e.g. `rate 0.2, seed 42, kinds rate-limit,drop, retry-after 1 s, slow 300 ms`. */
export function describeFaultProfile(settings: FaultProfileSettings): string {
  return (
    `rate ${settings.rate}, seed ${settings.seed}, kinds ${settings.kinds.join(',')}, ` +
    `retry-after ${settings.retryAfterSeconds} s, slow ${settings.slowMs} ms`
  );
}

/** e.g. `1000 calls, 203 faulted (rate-limit 40, server-error 41, drop 39, slow 42, ambiguous 41)`. */
export function describeFaultStats(stats: FaultStats): string {
  const kinds = FAULT_KINDS.map((kind) => `${kind} ${stats.byKind[kind]}`).join(', ');
  return `${stats.calls} calls, ${stats.injected} faulted (${kinds})`;
}

/** mulberry32: a tiny, well-mixed 32-bit PRNG; values in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A profile in use: its PRNG position and its counters. */
class ActiveProfile {
  private readonly random: () => number;
  calls = 0;
  readonly byKind: Record<FaultKind, number> = zeroByKind();

  constructor(readonly settings: FaultProfileSettings) {
    this.random = mulberry32(settings.seed);
  }

  decide(isCreate: boolean): FaultDecision | undefined {
    this.calls++;
    // Always three draws, whatever the outcome (see the module comment).
    const whether = this.random();
    const which = this.random();
    const variant = this.random();
    if (whether >= this.settings.rate) return undefined;
    // Only a create can be ambiguous; any other call gets one of the remaining kinds.
    const eligible = isCreate ? this.settings.kinds : this.settings.kinds.filter((kind) => kind !== 'ambiguous');
    if (eligible.length === 0) return undefined;
    const kind = eligible[Math.floor(which * eligible.length)]!;
    this.byKind[kind]++;
    return { kind, retryAfterSeconds: this.settings.retryAfterSeconds, slowMs: this.settings.slowMs, variant };
  }

  stats(): FaultStats {
    const byKind = { ...this.byKind };
    return { calls: this.calls, injected: FAULT_KINDS.reduce((sum, kind) => sum + byKind[kind], 0), byKind };
  }
}

function zeroByKind(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
}

/**
 * The seeded profile an emulator applies, switchable at runtime. Setting a profile starts its PRNG
 * from the seed and its counters from zero; clearing it stops faults but keeps the counters of the
 * last profile readable.
 */
export class SeededFaults {
  private active: ActiveProfile | undefined;
  private last: ActiveProfile | undefined;

  constructor(options?: FaultProfileOptions) {
    this.set(options);
  }

  /** Throws FaultProfileError when the options do not validate (the current profile is then kept). */
  set(options: FaultProfileOptions | undefined): void {
    const profile = options === undefined ? undefined : new ActiveProfile(faultProfileSettings(options));
    this.active = profile;
    if (profile) this.last = profile;
  }

  /** The settings in use, undefined when faults are off. */
  get settings(): FaultProfileSettings | undefined {
    return this.active?.settings;
  }

  /** The fault for the next call, if any; undefined (and nothing counted) when no profile is set. */
  decide(isCreate: boolean): FaultDecision | undefined {
    return this.active?.decide(isCreate);
  }

  stats(): FaultStats {
    return this.last?.stats() ?? { calls: 0, injected: 0, byKind: zeroByKind() };
  }
}
