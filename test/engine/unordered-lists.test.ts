/**
 * A list whose order carries no meaning is compared as a set everywhere, proven over every
 * list marked `unordered` in every resource type of both providers, with the engine's own plan and read
 * (packages/framework/src/engine/plan/planner.ts, reconcile.ts): for any elements and any reordering of them,
 * - at plan: a reordered configuration plans the prior value (no change, no replacement);
 * - after a read (drift): a reordered platform answer keeps the state's order;
 * - after an import (no prior state): the configuration's order plans no change of what was read.
 * The lists known to come back reordered are among the marked ones. Through the provider executable and the emulator
 * for three of them: test/resources/sec/last-gaps.test.ts.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { AttrDef, Fields } from '../../packages/framework/src/schema/define.js';
import { planObject, reconcileRead } from '../../packages/framework/src/engine/plan/index.js';
import { Unknown, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';

/** One marked list: the type, the blocks down to it, and its name. */
interface MarkedList {
  readonly type: string;
  readonly fields: Fields;
  readonly blocks: readonly string[];
  readonly name: string;
  readonly def: AttrDef<unknown>;
}

function markedLists(type: string, fields: Fields, root: Fields = fields, blocks: string[] = []): MarkedList[] {
  return Object.entries(fields).flatMap(([name, def]): MarkedList[] => {
    if (def.kind === 'block') return markedLists(type, def.fields, root, [...blocks, name]);
    return def.options.unordered ? [{ type, fields: root, blocks, name, def }] : [];
  });
}

const ALL = [...secDef.resources, ...vdbDef.resources].flatMap((r) => markedLists(r.typeName, r.schema.fields));
const address = (m: MarkedList) => [m.type, ...m.blocks, m.name].join('.');

/** An object of `fields` that sets nothing (blocks empty), but for `list` at the end of `blocks`. */
function objectWith(fields: Fields, blocks: readonly string[], name: string, list: Value): ObjectValue {
  const out: ObjectValue = {};
  for (const [n, def] of Object.entries(fields)) {
    if (def.kind === 'attr') out[n] = null;
    else out[n] = def.nesting === 'single' || def.nesting === 'group' ? null : [];
  }
  const [first, ...rest] = blocks;
  if (first === undefined) out[name] = list;
  else {
    const def = fields[first]!;
    if (def.kind !== 'block') throw new Error(`${first} is not a block`);
    const element = objectWith(def.fields, rest, name, list);
    out[first] = def.nesting === 'single' || def.nesting === 'group' ? element : [element];
  }
  return out;
}

/** The list at the end of `blocks` (first element of each block). */
function listAt(value: ObjectValue, blocks: readonly string[], name: string): Value {
  let node: ObjectValue = value;
  for (const b of blocks) {
    const v = node[b];
    node = (Array.isArray(v) ? v[0] : v) as ObjectValue;
  }
  return node[name] ?? null;
}

/** Anything still unknown after an apply has no value: a state holds none. */
function known(v: Value): Value {
  if (v instanceof Unknown) return null;
  if (Array.isArray(v)) return v.map(known);
  if (v !== null && typeof v === 'object' && v.constructor === Object)
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, known(e as Value)]));
  return v;
}

/** Distinct elements and a reordering of them. */
const elementsAndReordering = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,9}$/), { minLength: 2, maxLength: 6 })
  .chain((values) => fc.tuple(fc.constant(values), fc.shuffledSubarray(values, { minLength: values.length })));

describe('unordered lists: compared as sets at plan, after a read and after an import, in every type', () => {
  it('marks the lists whose order the platforms do not keep or do not mean, those known to come back reordered among them', () => {
    const marked = ALL.map(address);
    for (const named of [
      'sec_alert_channel_email.recipients',
      'sec_integration_cloud_a_dspm.regions',
      'sec_integration_cloud_c_dspm.regions',
      'sec_policy_exception.constraint.field_values',
      'sec_policy_exception.constraint.field_values_map.value',
    ])
      expect(marked, named).to.include(named);
  });

  for (const m of ALL) {
    it(`${address(m)}: a reordering plans no change, reads as the state's order, and imports without a change`, () => {
      fc.assert(
        fc.property(elementsAndReordering, ([values, reordered]) => {
          const a = objectWith(m.fields, m.blocks, m.name, values);
          const b = objectWith(m.fields, m.blocks, m.name, reordered);
          const prior = known(planObject(m.fields, null, a, a).planned) as ObjectValue;
          const type = m.def.type.cty;

          const plan = planObject(m.fields, prior, b, b);
          expect(valueEquals(type, listAt(plan.planned, m.blocks, m.name), values), 'planned').to.equal(true);
          expect(plan.requiresReplace, 'replacement').to.deep.equal([]);

          const read = reconcileRead(m.fields, prior, objectWith(m.fields, m.blocks, m.name, reordered));
          expect(valueEquals(type, listAt(read, m.blocks, m.name), values), 'read').to.equal(true);

          const imported = reconcileRead(m.fields, null, b);
          const afterImport = planObject(m.fields, imported, a, a).planned;
          expect(valueEquals(type, listAt(afterImport, m.blocks, m.name), reordered), 'after import').to.equal(true);
        }),
        { numRuns: 25 },
      );
    });
  }
});
