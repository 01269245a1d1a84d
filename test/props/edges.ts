/**
 * What the plan accepts, the platform accepts: every argument of a type's known-valid base set to the
 * values where platforms draw their lines, found without reading any rule. For each argument the
 * plan is asked first (validation, then the plan of a create); whatever it accepts is created against
 * the emulator, re-planned, imported and destroyed (test/props/lifecycle.ts); a bound found by
 * searching is also reached by an update from the base. A plan that passes and
 * an apply that fails, or a value that does not come back as written, is a finding.
 *
 * - Texts: the longest the plan accepts, found by halving between the base and the provider's limit
 *   for a text; and the shapes rules trip on (a comma, edge spaces, another case, an impossible date,
 *   a key with a space, a line break, a non-ASCII letter).
 * - Numbers: the largest and smallest the plan accepts, found by halving out to ±2^53, and a fraction.
 * - Lists and sets of texts: the most items the plan accepts (distinct ones made from the base's
 *   items), an item twice, an item with a comma, and one item at its longest.
 * - Maps of texts: a key with a space, a long key and a long value.
 */
import type { AttrDef, Fields, PlatformLimits } from '../../packages/framework/src/schema/define.js';
import { type Plain, type Step, valueAt, withValue } from './configs.js';
import { walkArguments } from './breaking.js';
import { Finding, type Lifecycle, type Subject, type Tally } from './lifecycle.js';

export interface EdgeTally {
  arguments: number;
  /** Configurations the plan was asked about. */
  asked: number;
  /** Of those, applied (accepted at plan). */
  applied: number;
  readonly findings: string[];
}

export const emptyEdgeTally = (): EdgeTally => ({ arguments: 0, asked: 0, applied: 0, findings: [] });

/** Where nothing of the provider bounds a text or a list, the search stops here. */
const FALLBACK_LIMITS: PlatformLimits = { characters: 65_536, items: 1000 } as PlatformLimits;
const MAX_SAFE = 2 ** 53;

/** The shapes that trip a rule the configuration decides, made from a valid text `b`. */
function textShapes(b: string): string[] {
  return [
    `${b},${b}`,
    `${b}, x`,
    ` ${b}`,
    `${b} `,
    b.toUpperCase(),
    b.toLowerCase(),
    `${b}\nx`,
    `é${b}`,
    'bad key!',
    'not-a-uuid',
    '2099-02-30T00:00:00Z',
    '-1',
    '0',
  ];
}

const codePoints = (s: string) => [...s].length;
const padded = (b: string, length: number) => b + 'x'.repeat(Math.max(0, length - codePoints(b)));

export class EdgeSweep {
  constructor(
    private readonly lifecycle: Lifecycle,
    private readonly limits: PlatformLimits | undefined,
    private readonly tally: EdgeTally,
    private readonly runs: Tally,
  ) {}

  async sweep(s: Subject): Promise<void> {
    const found: [Step[], AttrDef<unknown>][] = [];
    argumentsOf(s.fields, s.base, (steps, def) => found.push([steps, def]));
    for (const [steps, def] of found) {
      this.tally.arguments++;
      await this.argument(s, steps, def);
    }
  }

  private async argument(s: Subject, steps: Step[], def: AttrDef<unknown>): Promise<void> {
    const base = valueAt(s.base, steps);
    const cty = def.type.cty;
    const characters = def.options.maxCharacters ?? (this.limits ?? FALLBACK_LIMITS).characters;
    const items = (this.limits ?? FALLBACK_LIMITS).items;
    const tryValue = (value: unknown) => this.tryValue(s, steps, value, false);
    // A bound is tried by a create and by an update to it (an update's body may be judged apart).
    const tryBound = (value: unknown) => this.tryValue(s, steps, value, true);
    if (cty.kind === 'string') {
      const b = typeof base === 'string' && base !== '' ? base : 'tf-edge';
      const longest = await this.longest(s, steps, codePoints(b), characters, (n) => padded(b, n));
      if (longest > codePoints(b)) await tryBound(padded(b, longest));
      for (const shape of textShapes(b)) if (shape !== b) await tryValue(shape);
    } else if (cty.kind === 'number') {
      const b = typeof base === 'number' ? base : 1;
      for (const sign of [1, -1] as const) {
        const farthest = await this.farthest(s, steps, b, sign);
        if (farthest !== b) await tryBound(farthest);
      }
      await tryValue(b + 0.5);
    } else if ((cty.kind === 'list' || cty.kind === 'set') && cty.element.kind === 'string') {
      const list = Array.isArray(base) && base.length > 0 ? (base as string[]) : ['tf-edge'];
      const many = (n: number) => Array.from({ length: n }, (_, i) => (i < list.length ? list[i]! : `${list[0]}-${i}`));
      const most = await this.longest(s, steps, list.length, items, many);
      if (most > list.length) await tryBound(many(most));
      if (cty.kind === 'list') await tryValue([list[0], ...list]);
      await tryValue([`${list[0]},${list[0]}`, ...list.slice(1)]);
      await tryValue([`${list[0]}, x`, ...list.slice(1)]);
      const one = (n: number) => [padded(list[0]!, n), ...list.slice(1)];
      const longest = await this.longest(s, steps, codePoints(list[0]!), characters, one);
      if (longest > codePoints(list[0]!)) await tryBound(one(longest));
    } else if (cty.kind === 'map' && cty.element.kind === 'string') {
      const map = base !== null && typeof base === 'object' ? (base as Record<string, string>) : {};
      await tryValue({ ...map, 'bad key!': 'x' });
      await tryValue({ ...map, [padded('k', 254)]: 'x' });
      await tryValue({ ...map, k: padded('v', 257) });
    }
  }

  /** Whether the plan accepts the base with `value` at `steps`. */
  private async accepts(s: Subject, steps: Step[], value: unknown): Promise<boolean> {
    this.tally.asked++;
    return (await this.lifecycle.verdict(s.type, withValue(s.base, steps, value))).accepted;
  }

  /** The largest n in [from, to] whose value the plan accepts, by halving (from is the base's). */
  private async longest(s: Subject, steps: Step[], from: number, to: number, make: (n: number) => unknown) {
    if (to <= from) return from;
    if (await this.accepts(s, steps, make(to))) return to;
    let [lo, hi] = [from, to];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.accepts(s, steps, make(mid))) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** The farthest whole number from `b` in one direction that the plan accepts, out to 2^53. */
  private async farthest(s: Subject, steps: Step[], b: number, sign: 1 | -1): Promise<number> {
    const at = (d: number) => b + sign * d;
    const limit = MAX_SAFE - Math.abs(b);
    if (await this.accepts(s, steps, at(limit))) return at(limit);
    let [lo, hi] = [0, limit];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.accepts(s, steps, at(mid))) lo = mid;
      else hi = mid;
    }
    return at(lo);
  }

  /**
   * Asks the plan; what it accepts is created, re-planned, imported and destroyed, and with `update`
   * also reached by an update from the base.
   */
  private async tryValue(s: Subject, steps: Step[], value: unknown, update: boolean): Promise<void> {
    const config = withValue(s.base, steps, value);
    this.tally.asked++;
    if (!(await this.lifecycle.verdict(s.type, config)).accepted) return;
    this.tally.applied++;
    try {
      await this.lifecycle.run(s, config, null, this.runs);
      if (update) await this.lifecycle.run(s, s.base, config, this.runs);
    } catch (err) {
      if (!(err instanceof Finding)) throw err;
      const shown = JSON.stringify(value);
      this.tally.findings.push(
        `${s.type}.${steps.join('.')} = ${shown.length > 80 ? `${shown.slice(0, 80)}… (${shown.length})` : shown}: ` +
          err.message.split('\n')[0],
      );
    }
  }
}

/**
 * Every argument the base holds or could hold, blocks as the base has them, with its steps (the walk
 * of breaking.ts); a write-only twin goes with the secret it stands for.
 */
export function argumentsOf(fields: Fields, base: Plain, visit: (s: Step[], d: AttrDef<unknown>) => void): void {
  walkArguments(fields, base, (steps, _path, def) => {
    if (def.options.twinOf === undefined) visit(steps, def);
  });
}
