/**
 * The evidence that a create made an object (create-recovery.ts says when it is sought): what one
 * provider process knows about the objects its creates may make (the ledger: censuses, claims,
 * turns), and the rule that judges what a lookup after a lost answer found.
 */
import type { Fields, ModelOf } from '../schema/define.js';
import { fromModel } from '../schema/model.js';
import type { ObjectValue } from '../schema/value.js';
import type { CreateLookup, OpContext, Partial2, ResourceDef } from './contracts.js';
import { differencesFromPlan } from './reconcile.js';

export interface CreateRecoveryOptions {
  /** Create requests at most, the first included. */
  readonly attempts: number;
  /** Pause before each lookup, so that an object made a moment ago shows in the platform's lists. */
  readonly lookupDelayMs: number;
  /** How long a lookup may take once Terraform asked the provider to stop. */
  readonly lookupAfterStopMs: number;
  /** How long one listing of a type's objects serves as the census of the creates that follow it. */
  readonly censusMaxAgeMs: number;
}

export const DEFAULT_CREATE_RECOVERY: CreateRecoveryOptions = {
  attempts: 5,
  lookupDelayMs: 1_000,
  lookupAfterStopMs: 30_000,
  censusMaxAgeMs: 30_000,
};

export type Model = Partial2<ModelOf<Fields>>;
export type Lookup<C> = CreateLookup<Fields, C>;

/**
 * An object absent from the census. The census may be up to censusMaxAgeMs older than the request,
 * so the note says what is known: new since the listing, not made after the request was sent.
 */
const NEW_SINCE_CENSUS = 'not among the objects listed before the request';

/** A listing of a scope's objects taken before a create, and when. */
interface Census {
  readonly takenAt: number;
  readonly listing: Promise<readonly Model[]>;
}

/**
 * What one provider process knows about the objects its creates may make: the censuses taken before
 * creates, the objects its creates made or adopted, and which creates are under way for each key.
 */
export class CreateLedger {
  private readonly censuses = new Map<string, Census>();
  private readonly claims = new Map<string, Set<string>>();
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    readonly options: CreateRecoveryOptions,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The objects that existed before a create of this plan is sent: a recent listing of its scope, or a new one. */
  census<C>(typeName: string, lookup: Lookup<C>, plan: ModelOf<Fields>, ctx: OpContext<C>): Promise<readonly Model[]> {
    const key = `${typeName}\0${lookup.scope?.(plan) ?? ''}`;
    const held = this.censuses.get(key);
    if (held && this.now() - held.takenAt <= this.options.censusMaxAgeMs) return held.listing;
    const listing = lookup.list(plan, ctx);
    this.censuses.set(key, { takenAt: this.now(), listing });
    // A failed listing is not kept: the next create lists anew.
    listing.catch(() => {
      if (this.censuses.get(key)?.listing === listing) this.censuses.delete(key);
    });
    return listing;
  }

  claim(typeName: string, id: string): void {
    let ids = this.claims.get(typeName);
    if (!ids) this.claims.set(typeName, (ids = new Set()));
    ids.add(id);
  }

  isClaimed(typeName: string, id: string): boolean {
    return this.claims.get(typeName)?.has(id) ?? false;
  }

  /** Runs `work` once every earlier work under the same key has finished. */
  async oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.turns.get(key) ?? Promise.resolve();
    let finished!: () => void;
    const mine = before.then(() => new Promise<void>((resolve) => (finished = resolve)));
    this.turns.set(key, mine);
    try {
      await before;
      return await work();
    } finally {
      // `finished` is set once `before` has settled, which the await above waited for.
      finished();
      if (this.turns.get(key) === mine) this.turns.delete(key);
    }
  }
}

/** An object holding the plan's key, and why it was not adopted. */
export interface Holder {
  readonly id: string;
  readonly note: string;
}

export type Verdict =
  | { kind: 'ours'; object: Model }
  | { kind: 'none'; holders: Holder[] }
  | { kind: 'unclear'; why: string; holders: Holder[] };

/**
 * After a lost answer: which object, if any, the lost request provably made, judged from `listed`,
 * a fresh listing taken after the loss (never the census).
 */
export function judge<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  listed: readonly Model[],
  before: ReadonlySet<string>,
  ledger: CreateLedger,
): Verdict {
  const found = listed.filter((o) => lookup.holdsKey(plan, o));
  const fields = r.schema.fields;
  const later = new Set<string>(lookup.setAfterCreate ?? []);
  const holders: Holder[] = [];
  const fresh: Array<{ object: Model; differs: string[] }> = [];
  for (const object of found) {
    const id = lookup.importId(object);
    if (before.has(id)) holders.push({ id, note: 'it existed before this create was sent' });
    else if (ledger.isClaimed(r.typeName, id)) holders.push({ id, note: 'another resource of this run made it' });
    else {
      const differs = differencesFromPlan(fields, planned, fromModel(fields, object, planned), later);
      fresh.push({ object, differs });
      const note =
        differs.length === 0
          ? NEW_SINCE_CENSUS
          : `${NEW_SINCE_CENSUS}, but its ${differs.map((p) => `\`${p}\``).join(', ')} differ from the plan`;
      holders.push({ id, note });
    }
  }
  if (fresh.length === 0) return { kind: 'none', holders };
  if (fresh.length === 1 && fresh[0]!.differs.length === 0) return { kind: 'ours', object: fresh[0]!.object };
  const why =
    fresh.length > 1
      ? `${fresh.length} objects holding its key were ${NEW_SINCE_CENSUS}, and the provider cannot tell which one, ` +
        'if any, it made.'
      : `An object holding its key was ${NEW_SINCE_CENSUS}, but it does not hold what the plan asked for, so it may ` +
        "be another's.";
  return { kind: 'unclear', why, holders };
}

/** Attributes declared `oneTime` that an adopted object lacks. */
export function missingOneTimeValues<C>(r: ResourceDef<Fields, C>, found: Model): string[] {
  return Object.entries(r.schema.fields)
    .filter(([name, def]) => def.kind === 'attr' && def.options.oneTime && !(found as Record<string, unknown>)[name])
    .map(([name]) => name);
}
