/**
 * How long an RPC spent waiting on the management API, so its trace line can tell the provider's
 * own time from the API's. The RPC guard runs its body inside `measureApiTime`; the client
 * transports wrap each exchange in `timeApiExchange`. Exchanges that overlap (parallel calls within
 * one RPC) count once: the total is the wall time during which at least one was in flight.
 * Outside a measured RPC (tests, scripts) exchanges are simply not counted. It lies beneath both
 * the transports that count and the server that reports.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A clock in milliseconds: `performance.now`, or a test's own, which it moves by hand. */
export type Clock = () => number;

class ApiTimeAccumulator {
  private inFlight = 0;
  private busySince = 0;
  private totalMs = 0;

  constructor(private readonly now: Clock) {}

  begin(): void {
    if (this.inFlight++ === 0) this.busySince = this.now();
  }

  end(): void {
    if (--this.inFlight === 0) this.totalMs += this.now() - this.busySince;
  }

  /** Includes the running stretch when read while exchanges are still in flight. */
  get ms(): number {
    return this.totalMs + (this.inFlight > 0 ? this.now() - this.busySince : 0);
  }
}

const current = new AsyncLocalStorage<ApiTimeAccumulator>();

/** Runs `body` with a fresh accumulator; `apiMs()` reads it at any point, e.g. when logging. */
export function measureApiTime<T>(body: (apiMs: () => number) => T, now: Clock = () => performance.now()): T {
  const accumulator = new ApiTimeAccumulator(now);
  return current.run(accumulator, () => body(() => accumulator.ms));
}

/**
 * Counts one API exchange (one attempt, without retry waits) towards the enclosing RPC. Outside a
 * measured RPC the exchange's own promise is returned: no promise more per exchange.
 */
export function timeApiExchange<T>(exchange: () => Promise<T>): Promise<T> {
  const accumulator = current.getStore();
  if (accumulator) return timed(accumulator, exchange);
  try {
    return exchange();
  } catch (error) {
    return Promise.reject(error);
  }
}

async function timed<T>(accumulator: ApiTimeAccumulator, exchange: () => Promise<T>): Promise<T> {
  accumulator.begin();
  try {
    return await exchange();
  } finally {
    accumulator.end();
  }
}
