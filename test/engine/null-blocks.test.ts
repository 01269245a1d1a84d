/**
 * Terraform never proposes a list or set of nested blocks as null: no blocks is an empty collection.
 * pulumi-terraform-bridge does send null for blocks a program leaves out, and a plan that kept the
 * null made create store null where read later returns empty, so `pulumi refresh` found changes on
 * an untouched vdb cluster. The rule, over every resource type of both providers: a create planned
 * from a proposal with every list and set block null plans each of them as an empty collection.
 */
import { expect } from 'chai';
import { planObject } from '../../packages/framework/src/engine/plan/index.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import type { ObjectValue, Value } from '../../packages/framework/src/schema/value.js';

/** An object of `fields` with every attribute null, single blocks present and every other block null. */
function withNullBlocks(fields: Fields): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'attr') out[name] = null;
    else if (def.nesting === 'single' || def.nesting === 'group') out[name] = withNullBlocks(def.fields);
    else out[name] = null;
  }
  return out;
}

/** The paths of list and set blocks that are null in `value`, single blocks walked into. */
function nullBlockPaths(fields: Fields, value: ObjectValue, path: string, out: string[]): string[] {
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'attr') continue;
    const v: Value = value[name] ?? null;
    if (def.nesting === 'list' || def.nesting === 'set') {
      if (v === null) out.push(`${path}${name}`);
    } else if ((def.nesting === 'single' || def.nesting === 'group') && v !== null && typeof v === 'object')
      nullBlockPaths(def.fields, v as ObjectValue, `${path}${name}.`, out);
  }
  return out;
}

describe('plan: a list or set of blocks is never null', () => {
  for (const provider of ['sec', 'vdb'] as const)
    it(`${provider}: every resource type plans absent list and set blocks as empty`, async () => {
      const def = await loadProviderDef(provider);
      const wrong: string[] = [];
      let blocks = 0;
      for (const r of def.resources) {
        const fields = r.schema.fields as Fields;
        const proposed = withNullBlocks(fields);
        blocks += nullBlockPaths(fields, proposed, '', []).length;
        const planned = planObject(fields, null, proposed, proposed).planned;
        for (const path of nullBlockPaths(fields, planned, '', [])) wrong.push(`${r.typeName}.${path}`);
      }
      expect(blocks, 'the providers have list and set blocks to check').to.be.greaterThan(0);
      expect(wrong).to.deep.equal([]);
    });
});
