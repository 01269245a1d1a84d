/**
 * The drift rule for every type of a provider: an update never erases what the platform holds and
 * the configuration does not speak of. The object is made from the type's example; then, as the
 * platform's console would, a field the provider does not model is set at every level of the object the
 * platform keeps as an object of settings (not inside lists, nor in maps or status; see NOT_SETTINGS);
 * then an argument unrelated to them is changed through the provider. Every such field must still be
 * on the platform, as set.
 */
import { expect } from 'chai';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import { samplesOf } from '../../src/schema/samples.js';
import { valueToPlain } from '../../packages/framework/src/schema/model.js';
import { at, type EmulatorHandle } from '../acceptance/examples-workspace.js';
import type { TypeRecord } from '../acceptance/ledger.js';
import { isArgument, withValue, type Plain, type Step } from './configs.js';
import { show, type Lifecycle, type Subject } from './lifecycle.js';

/** The console's own setting, which no provider models. */
export const CONSOLE_FIELD = 'consoleNote';
const CONSOLE_VALUE = 'set in the console';

/**
 * Objects of a platform object that hold no console settings, by collection (dotted paths): maps whose
 * keys are entries the provider owns (a key the console added would be a new entry, not a setting),
 * the resource group's expression tree, which the provider rebuilds from its blocks, and an
 * integration's `state`, the platform's own health report, which it rewrites itself (a channel test).
 */
const NOT_SETTINGS: Readonly<Record<string, readonly string[]>> = {
  VulnerabilityExceptions: ['resourceScope'],
  ResourceGroups: ['query.filters', 'query.expression'],
  ReportRules: ['reportNotificationTypes'],
  Policies: ['exceptionConfiguration'],
  AlertChannels: ['state'],
  CloudAccounts: ['state'],
  ContainerRegistries: ['state'],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `stored` with the console's field at every object level (see above); the dotted paths where it was put. */
export function withConsoleFields(collection: string, stored: unknown): { value: unknown; paths: string[] } {
  const skipped = new Set(NOT_SETTINGS[collection] ?? []);
  const paths: string[] = [];
  const visit = (v: unknown, path: string): unknown => {
    if (!isObject(v) || skipped.has(path)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) out[k] = visit(e, path === '' ? k : `${path}.${k}`);
    out[CONSOLE_FIELD] = CONSOLE_VALUE;
    paths.push(path === '' ? CONSOLE_FIELD : `${path}.${CONSOLE_FIELD}`);
    return out;
  };
  return { value: visit(stored, ''), paths };
}

function withoutConsoleFields(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutConsoleFields);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== CONSOLE_FIELD)
      .map(([k, e]) => [k, withoutConsoleFields(e)]),
  );
}

/** Arguments a change of which is plainly an update (no secret, no reference, no replacement), top level first. */
function candidates(fields: Fields, config: Plain): { path: Step[]; values: unknown[] }[] {
  const out: { path: Step[]; values: unknown[] }[] = [];
  const visit = (fs: Fields, node: Plain, path: Step[]) => {
    for (const [name, def] of Object.entries(fs)) {
      if (def.kind === 'block') continue;
      const o = def.options;
      if (!isArgument(def) || o.replace || o.refersTo || o.sensitive || o.writeOnly || o.twinOf) continue;
      if (o.deprecated !== undefined || o.providerOnly || o.platformAssigned) continue;
      const current = node[name];
      const kind = def.type.cty.kind;
      const values = samplesOf(def).filter((s) => JSON.stringify(s) !== JSON.stringify(current));
      if (kind === 'string' && typeof current === 'string') values.push(`${current} (changed)`);
      if (kind === 'bool') values.push(current === false);
      if (values.length > 0) out.push({ path: [...path, name], values });
    }
    for (const [name, def] of Object.entries(fs)) {
      const elements = node[name];
      if (def.kind === 'block' && Array.isArray(elements) && elements.length > 0 && path.length === 0)
        visit(def.fields, elements[0] as Plain, [name, 0]);
    }
  };
  visit(fields, config, []);
  return out;
}

export interface UnmodelledRun {
  readonly lifecycle: Lifecycle;
  readonly emulator: EmulatorHandle;
  readonly records: ReadonlyMap<string, TypeRecord>;
  /** Whether a logged operation changes something. */
  readonly isWrite: (operation: string) => boolean;
}

/**
 * Makes `s` from its base, sets the console's fields, changes one unrelated argument through the
 * provider and checks the platform still holds them; destroys the object. Returns the argument changed.
 */
export async function keepsWhatTheConfigurationDoesNotSpeakOf(run: UnmodelledRun, s: Subject): Promise<string> {
  const { lifecycle, emulator } = run;
  const tf = lifecycle.tf;
  const record = run.records.get(s.type);
  if (!record) throw new Error(`${s.type}: the example names no emulator collection`);
  const first = await lifecycle.verdict(s.type, s.base);
  if (!first.accepted) throw new Error(`${s.type}: the base is refused: ${first.why.join('; ')}`);
  let state = (await tf.apply(s.type, null, first.planned, first.config)).state!;
  try {
    const id = at(valueToPlain(state) as Plain, record.key) as string;
    const { value, paths } = withConsoleFields(record.collection, emulator.get(record.collection, id));
    emulator.put(record.collection, id, value);
    // The console's fields are not the provider's: a refresh shows nothing changed.
    state = (await tf.read(s.type, state)).state!;

    for (const { path, values } of candidates(s.fields, s.base)) {
      for (const v of values) {
        const changed = withValue(s.base, path, v);
        const next = await lifecycle.verdict(s.type, changed, state);
        if (!next.accepted || next.planned.requiresReplace.length > 0) continue;
        const before = emulator.operations().length;
        state = (await tf.apply(s.type, state, next.planned, next.config)).state!;
        const writes = emulator.operations().slice(before).filter(run.isWrite);
        if (writes.length === 0) continue;
        const now = emulator.get(record.collection, id);
        const lost = paths.filter((p) => at(now, p) !== CONSOLE_VALUE);
        expect(
          lost,
          `${s.type}: fields the console set, after an update of ${path.join('.')} to ${show(v)} (${writes.join(', ')})`,
        ).to.deep.equal([]);
        return path.join('.');
      }
    }
    throw new Error(`${s.type}: no argument of ${show(s.base)} could be changed in place`);
  } finally {
    await tf.apply(s.type, state, await tf.plan(s.type, state, null), null).catch(() => undefined);
    // An object the platform keeps (a built-in policy) loses the console's fields again.
    const id = at(valueToPlain(state) as Plain, record.key) as string;
    const left = emulator.get(record.collection, id);
    if (left !== undefined) emulator.put(record.collection, id, withoutConsoleFields(left));
  }
}

/** The figures of a run, for the printed line. */
export function describeKept(changed: ReadonlyMap<string, string>): string {
  return `${changed.size} types: ${[...changed].map(([t, a]) => `${t} (${a})`).join(', ')}`;
}
