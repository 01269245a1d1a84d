/**
 * Values the platform stamps on every update (the DSL's `volatile`: a last-modified time, also one
 * inside a nested block such as a hybrid environment's `configuration[0].last_modified_at`) are
 * planned unknown on any update of the object, whichever part changes, at every depth; and stay as
 * they are when nothing changes. Checked over every resource type of both providers with the
 * engine's planner, on objects that hold every block once.
 */
import { expect } from 'chai';
import { loadProviderDef } from '../../src/providers/describe.js';
import { planObject, isPlatformSetting } from '../../packages/framework/src/engine/plan/index.js';
import type { AttrDef, Fields } from '../../packages/framework/src/schema/define.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { UNKNOWN, Unknown, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';

/** A known value of every type; collections hold one element so that nested values exist. */
function sample(type: CtyType): Value {
  switch (type.kind) {
    case 'string':
      return '2030-01-01T00:00:00Z';
    case 'number':
      return 1;
    case 'bool':
      return true;
    case 'list':
    case 'set':
      return [sample(type.element)];
    case 'map':
      return { k: sample(type.element) };
    case 'object':
      return Object.fromEntries(Object.entries(type.attributes).map(([n, t]) => [n, sample(t)]));
    case 'tuple':
      return type.elements.map(sample);
    case 'dynamic':
      return null;
  }
}

/** An object of `fields` with every attribute set and every block present once. */
function wholeObject(fields: Fields): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'attr') out[name] = def.options.writeOnly ? null : sample(def.type.cty);
    else if (def.nesting === 'single' || def.nesting === 'group') out[name] = wholeObject(def.fields);
    else if (def.nesting === 'map') out[name] = { k: wholeObject(def.fields) };
    else out[name] = [wholeObject(def.fields)];
  }
  return out;
}

/** A top-level setting the platform holds, changed: a rename where the type has a name. */
function changedSetting(fields: Fields, prior: ObjectValue): [string, ObjectValue] | undefined {
  const primitive = (d: AttrDef<unknown>) => ['string', 'number', 'bool'].includes(d.type.cty.kind);
  const settable = (d: AttrDef<unknown>) =>
    isPlatformSetting(d) && !d.options.writeOnly && !d.options.platformAssigned && primitive(d);
  const candidates = Object.entries(fields).filter(
    (e): e is [string, AttrDef<unknown>] => e[1].kind === 'attr' && settable(e[1]),
  );
  const [name, def] =
    candidates.find(([n]) => n === 'name') ?? candidates.find(([, d]) => !d.options.replace) ?? candidates[0] ?? [];
  if (name === undefined || def === undefined) return undefined;
  const v = prior[name];
  const kind = def.type.cty.kind;
  const other: Value = kind === 'string' ? `${String(v)}-renamed` : kind === 'number' ? 2 : !v;
  return [name, { ...prior, [name]: other }];
}

/** Every volatile value in `value`, with its path and whether it is unknown. */
function volatiles(fields: Fields, value: ObjectValue, path = ''): Array<{ path: string; unknown: boolean }> {
  return Object.entries(fields).flatMap(([name, def]) => {
    const here = path === '' ? name : `${path}.${name}`;
    const v = value[name] ?? null;
    if (def.kind === 'attr') return def.options.volatile ? [{ path: here, unknown: v instanceof Unknown }] : [];
    if (v === null || v instanceof Unknown) return [];
    const elements = Array.isArray(v) ? v : def.nesting === 'map' ? Object.values(v as ObjectValue) : [v];
    return elements.flatMap((e, i) => volatiles(def.fields, e as ObjectValue, `${here}[${i}]`));
  });
}

describe('volatile values: planned unknown on any update, at every depth, for every resource type', () => {
  for (const provider of ['sec', 'vdb'] as const) {
    it(`${provider}: every volatile value is unknown in an update's plan, kept in an empty plan`, async () => {
      const def = await loadProviderDef(provider);
      const wrong: string[] = [];
      let checked = 0;
      let nested = 0;
      for (const r of def.resources) {
        const fields = r.schema.fields as Fields;
        const prior = wholeObject(fields);
        const change = changedSetting(fields, prior);
        if (change === undefined) continue;
        const [changed, proposed] = change;
        const update = planObject(fields, prior, proposed, proposed).planned;
        for (const v of volatiles(fields, update)) {
          checked++;
          if (v.path.includes('.')) nested++;
          if (!v.unknown) wrong.push(`${r.typeName}.${v.path} is planned known when ${changed} changes`);
        }
        const same = planObject(fields, prior, prior, prior).planned;
        for (const v of volatiles(fields, same)) {
          if (v.unknown) wrong.push(`${r.typeName}.${v.path} is planned unknown when nothing changes`);
        }
        // What is not volatile and not tied to the change stays known.
        for (const [name, d] of Object.entries(fields)) {
          const followsNothing =
            d.kind === 'attr' && !d.options.volatile && !d.options.changesWith && d.options.computed;
          if (followsNothing && !isPlatformSetting(d) && update[name] === UNKNOWN) {
            wrong.push(`${r.typeName}.${name} (not volatile) is planned unknown when ${changed} changes`);
          }
        }
      }
      expect(wrong, wrong.join('\n')).to.deep.equal([]);
      expect(checked, 'volatile values checked').to.be.greaterThan(0);
      // vdb has them inside blocks (configuration.last_modified_at).
      if (provider === 'vdb') expect(nested, 'volatile values inside blocks').to.be.above(0);
    });
  }
});
