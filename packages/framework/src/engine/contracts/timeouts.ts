/**
 * How long a resource's operations may take: the `timeouts` attribute a resource declares with
 * `timeoutsAttribute` (`timeouts = { create = "30m" }` in a configuration, as the plugin framework's
 * timeouts attributes are written), each operation's limit a Go duration, the declared default where the
 * configuration says nothing. It is the provider's own setting: never sent to the platform, kept from the
 * prior state by a read, and a change to it alone calls no API. The engine ends an operation at its
 * limit: `ctx.signal` aborts, and the operation fails with what it was doing and the setting that
 * limits it (a create that ran out may still have made its object: the create's record says so to the
 * next run, as for any create whose answer was lost).
 */
import { attr, type AttrDef, type Fields } from '../../schema/define.js';
import { Unknown, type ObjectValue } from '../../schema/value.js';
import { GoDurationError, parseGoDuration } from '../../wire/go-duration.js';

export type TimedOperation = 'create' | 'read' | 'update' | 'delete';
export type TimeoutDefaults = Readonly<Partial<Record<TimedOperation, string>>>;

const ORDER: readonly TimedOperation[] = ['create', 'read', 'update', 'delete'];

/** Milliseconds of a Go duration; throws GoDurationError on another text. */
function millisecondsOf(text: string): number {
  return Number(parseGoDuration(text) / 1_000_000n);
}

const goDuration = {
  description: 'a Go duration such as `90s`, `30m` or `1h30m`',
  samples: ['30s', '20m', '1h30m'],
  check: (value: string) => {
    try {
      return millisecondsOf(value) > 0 ? undefined : `must be a duration above zero, got ${JSON.stringify(value)}`;
    } catch (error) {
      const why = error instanceof GoDurationError ? error.message : String(error);
      return `must be a Go duration such as "30m" or "1h30m" (${why})`;
    }
  },
};

/**
 * The `timeouts` attribute of a resource: one optional setting per operation named in `defaults`, each
 * `defaults[operation]` when unset. Declare it as the field `timeouts`.
 */
export function timeoutsAttribute(defaults: TimeoutDefaults): AttrDef<Record<string, string | null> | null> {
  const operations = ORDER.filter((op) => defaults[op] !== undefined);
  if (operations.length === 0) throw new Error('timeoutsAttribute: name at least one operation with its default');
  const attributes: Record<string, AttrDef<string, boolean>> = {};
  for (const op of operations) {
    millisecondsOf(defaults[op]!);
    attributes[op] = attr.string({
      optional: true,
      description:
        `How long ${op === 'update' ? 'an' : 'a'} ${op} may take before it fails, ` +
        'as a Go duration ("90s", "30m", "1h30m"); ' +
        `${defaults[op]} when unset.`,
      validate: [goDuration],
    });
  }
  return attr.nested({
    nesting: 'single',
    attributes,
    optional: true,
    providerOnly: true,
    timeouts: defaults,
    description: `How long each operation may take before it fails (${operations.join(', ')}).`,
  }) as AttrDef<Record<string, string | null> | null>;
}

/** A limit in force: its milliseconds, and how to name it in a message. */
export interface OperationLimit {
  readonly ms: number;
  readonly setting: string;
  readonly text: string;
}

/**
 * The limit of `op` for a resource with these fields, by the `timeouts` value of `value` (the plan, or
 * the prior state for a read or delete); undefined when the resource declares no limit for it.
 */
export function operationLimit(
  fields: Fields,
  value: ObjectValue | null,
  op: TimedOperation,
): OperationLimit | undefined {
  const found = timeoutsFieldOf(fields);
  const fallback = found?.[1][op];
  if (found === null || fallback === undefined) return undefined;
  const [name] = found;
  const given = value?.[name];
  const set =
    given !== null && typeof given === 'object' && !(given instanceof Unknown) ? (given as ObjectValue)[op] : null;
  const text = typeof set === 'string' ? set : fallback;
  try {
    return { ms: millisecondsOf(text), setting: `${name}.${op}`, text };
  } catch {
    return { ms: millisecondsOf(fallback), setting: `${name}.${op}`, text: fallback };
  }
}

/** Each type's `timeouts` attribute (its name and defaults), or null: looked for once per type, not per call. */
const timeoutsFields = new WeakMap<Fields, readonly [string, TimeoutDefaults] | null>();
function timeoutsFieldOf(fields: Fields): readonly [string, TimeoutDefaults] | null {
  let found = timeoutsFields.get(fields);
  if (found === undefined) {
    const entry = Object.entries(fields).find(([, def]) => def.kind === 'attr' && def.options.timeouts !== undefined);
    found = entry && entry[1].kind === 'attr' ? [entry[0], entry[1].options.timeouts!] : null;
    timeoutsFields.set(fields, found);
  }
  return found;
}

/**
 * The error of an operation that ran out of its time: the limit the user (or the type's default) set,
 * never a bug; `then` says what becomes of an object a create may still make.
 */
export class OperationTimedOut extends Error {
  override readonly name = 'OperationTimedOut';
  constructor(op: TimedOperation, limit: OperationLimit, then?: string) {
    super(`the ${op} did not finish within ${limit.text} (\`${limit.setting}\`)${then ? `; ${then}` : ''}`);
  }
}

/** What a create that ran out of its time may leave, as its type can tell (`findCreated`, `repeatableCreate`). */
export function lateCreate(type: { readonly findCreated?: unknown; readonly repeatableCreate?: string }) {
  if (type.findCreated)
    return 'the object may still be made: the next plan or apply finds it by its record and takes it';
  if (type.repeatableCreate) return undefined;
  return (
    'the object may still be made, and this type cannot find it (it declares no findCreated): applying ' +
    'again may make a second one, so look on the platform first'
  );
}

/** The most a timer waits (Node's limit); a longer limit is no limit. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** An operation's deadline: the signal that aborts at its limit, and the wait that gives up then. */
export interface Deadline {
  /** Aborts when the limit is reached; undefined when the operation has none. */
  readonly signal: AbortSignal | undefined;
  /** `running`'s outcome, or OperationTimedOut at the limit even when it does not stop. */
  bound<T>(running: Promise<T>): Promise<T>;
}

/** The deadline of `op` under `limit`, counted from now; `then` says what a late create may leave. */
export function deadline(op: TimedOperation, limit: OperationLimit | undefined, then?: string): Deadline {
  if (limit === undefined || limit.ms > LONGEST_TIMER_MS) return { signal: undefined, bound: (running) => running };
  const controller = new AbortController();
  const error = new OperationTimedOut(op, limit, then);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(error);
      reject(error);
    }, limit.ms);
  });
  expired.catch(() => undefined);
  return {
    signal: controller.signal,
    async bound(running) {
      // What the operation says after its time is up reaches no one.
      running.catch(() => undefined);
      try {
        return await Promise.race([running, expired]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
