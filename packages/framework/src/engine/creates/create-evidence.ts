/**
 * The evidence that a create made an object (create-recovery.ts says when it is sought): what one
 * provider process knows about the objects its creates may make (the ledger: censuses, claims,
 * turns), and the rule that judges what a lookup after a lost answer found.
 */
import type { Fields, ModelOf } from '../../schema/define.js';
import { fromModel } from '../../schema/model.js';
import type { ObjectValue } from '../../schema/value.js';
import type { CreateLookup, OpContext, Partial2, ResourceDef } from '../contracts/index.js';
import { differencesFromPlan } from '../plan/index.js';

export interface CreateRecoveryOptions {
  /** Create requests at most, the first included. */
  readonly attempts: number;
  /** Pause before each lookup, so that an object made a moment ago shows in the platform's lists. */
  readonly lookupDelayMs: number;
  /** How long a lookup may take once Terraform asked the provider to stop. */
  readonly lookupAfterStopMs: number;
  /** How long one listing of a type's objects serves as the census of the creates that follow it. */
  readonly censusMaxAgeMs: number;
  /** How long a plan waits for the platform to answer one of its listings (engine/catalogue/catalogue-checks.ts). */
  readonly lookBudgetMs: number;
}

export const DEFAULT_CREATE_RECOVERY: CreateRecoveryOptions = {
  attempts: 5,
  lookupDelayMs: 1_000,
  lookupAfterStopMs: 30_000,
  censusMaxAgeMs: 30_000,
  lookBudgetMs: 6_000,
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

/** What is known of the requests whose object a lookup looks for. */
export interface Evidence {
  /** Import ids of the objects that held the key before the first request: none of them is its object. */
  readonly before: ReadonlySet<string>;
  /** Why a new object is not this create's to take (another resource made it, a state tracks it), if so. */
  readonly taken: (id: string) => string | undefined;
  /**
   * When the requests could have made their object (epoch ms), for types whose lookup reports when an
   * object was made: one made outside it is not theirs. Absent: no time is known (a lost answer in
   * this process, judged moments after its census).
   */
  readonly window?: { readonly from: number; readonly to: number };
  /** How many create requests may each have made one object (1 in this process; one per record after a kill). */
  readonly requests: number;
}

/** The evidence of one request of this process: its census, and the claims of this run's other creates. */
export function requestEvidence(typeName: string, before: ReadonlySet<string>, ledger: CreateLedger): Evidence {
  return {
    before,
    taken: (id) => (ledger.isClaimed(typeName, id) ? 'another resource of this run made it' : undefined),
    requests: 1,
  };
}

/**
 * Which object, if any, the requests provably made, judged from `listed`, a fresh listing taken
 * after the loss (never the census): objects that are new, not taken, made inside the window, and
 * hold what the plan asks for. Adopted only when no new object differs from the plan and there are no
 * more of them than requests (which are then of one configuration, key and settings alike).
 */
export function judge<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  plan: ModelOf<Fields>,
  planned: ObjectValue,
  listed: readonly Model[],
  evidence: Evidence,
): Verdict {
  const found = listed.filter((o) => lookup.holdsKey(plan, o));
  const fields = r.schema.fields;
  const later = new Set<string>(lookup.setAfterCreate ?? []);
  const holders: Holder[] = [];
  const matching: Model[] = [];
  let differing = 0;
  for (const object of found) {
    const id = lookup.importId(object);
    const taken = evidence.before.has(id) ? 'it existed before this create was sent' : evidence.taken(id);
    const outside = taken === undefined ? outsideWindow(lookup, object, evidence.window) : undefined;
    if (taken !== undefined || outside !== undefined) {
      holders.push({ id, note: (taken ?? outside)! });
      continue;
    }
    const differs = differencesFromPlan(fields, planned, fromModel(fields, object, planned), later);
    if (differs.length === 0) matching.push(object);
    else differing++;
    const note =
      differs.length === 0
        ? NEW_SINCE_CENSUS
        : `${NEW_SINCE_CENSUS}, but its ${differs.map((p) => `\`${p}\``).join(', ')} differ from the plan`;
    holders.push({ id, note });
  }
  const fresh = matching.length + differing;
  if (fresh === 0) return { kind: 'none', holders };
  if (differing === 0 && matching.length <= evidence.requests) return { kind: 'ours', object: matching[0]! };
  const why =
    fresh > evidence.requests
      ? `${fresh} objects holding its key were ${NEW_SINCE_CENSUS}, ${
          evidence.requests === 1 ? 'and one request' : `and ${evidence.requests} requests`
        } could have made ${evidence.requests === 1 ? 'one' : 'no more than that'}: the provider cannot tell which, ` +
        'if any, are its own.'
      : `An object holding its key was ${NEW_SINCE_CENSUS}, but it does not hold what the plan asked for, so it may ` +
        "be another's.";
  return { kind: 'unclear', why, holders };
}

/** Why `object` cannot have been made inside `window`, where its lookup reports when it was made. */
function outsideWindow<C>(lookup: Lookup<C>, object: Model, window: Evidence['window']): string | undefined {
  if (!window || !lookup.madeAt) return undefined;
  const at = lookup.madeAt(object);
  if (at === undefined || (at >= window.from && at <= window.to)) return undefined;
  return (
    `the platform says it was made or last changed at ${new Date(at).toISOString()}, when the earlier ` +
    'request could not have made it'
  );
}

/** Attributes declared `oneTime` that an adopted object lacks. */
export function missingOneTimeValues<C>(r: ResourceDef<Fields, C>, found: Model): string[] {
  return Object.entries(r.schema.fields)
    .filter(([name, def]) => def.kind === 'attr' && def.options.oneTime && !(found as Record<string, unknown>)[name])
    .map(([name]) => name);
}
