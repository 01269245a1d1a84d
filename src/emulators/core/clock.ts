/**
 * The emulator's notion of "now". Tests move it forward to expire tokens or age objects without
 * sleeping; it never goes backwards. It may start off the machine's clock (`offsetMs`, negative:
 * behind), as a platform's clock is off a runner's.
 */
export class Clock {
  constructor(private offsetMs = 0) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
  }
}
