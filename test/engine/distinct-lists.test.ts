/**
 * A list the platform keeps each value of once (`distinct`;
 * docs/decisions.md, "Lists the platform keeps each value of once"), proven over every such list of
 * every resource type of both providers: a value named twice is accepted at validation and at plan,
 * sent once (`withoutRepeats`), and the read that gives it once settles on the configured list, so
 * the next plan is empty. Through real Terraform, a repeat unknown until apply applies, re-plans
 * empty and is destroyed: test/acceptance/repeats.test.ts.
 */
import { expect } from 'chai';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { AttrDef, Fields } from '../../packages/framework/src/schema/define.js';
import {
  planObject,
  reconcileRead,
  withoutRepeats,
  checkConfig,
} from '../../packages/framework/src/engine/plan/index.js';
import { Diagnostics } from '../../packages/framework/src/engine/diagnostics/index.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';

const DISTINCT = [...secDef.resources, ...vdbDef.resources].flatMap((r) =>
  Object.entries(r.schema.fields as Fields).flatMap(([name, def]) =>
    def.kind === 'attr' && def.options.distinct ? [{ r, name, def: def as AttrDef<unknown> }] : [],
  ),
);

/** A value the attribute's validators accept, as elements the platform could hold. */
function elementsFor(def: AttrDef<unknown>): string[] {
  const samples = (def.options.validate ?? []).flatMap((v) => (v.samples ?? []) as unknown[]).flat();
  const strings = samples.filter((s): s is string => typeof s === 'string');
  const uuid = 'c0ffee00-1234-4abc-8def-0123456789ab';
  const candidates = [...strings, 'High', 'Critical', uuid, 'EXAMPLE_0123'];
  return candidates.filter((c) => (def.options.validate ?? []).every((v) => v.check([c] as never) === undefined));
}

describe('engine: a list the platform keeps each value of once sends a repeat once and settles', () => {
  it('covers the distinct lists of both providers, every one unordered', () => {
    expect(DISTINCT.map((d) => `${d.r.typeName}.${d.name}`).sort()).to.deep.equal([
      'sec_alert_rule.severities',
      'sec_data_export_rule.integration_ids',
      'vdb_accounts_auth_key.cluster_ids',
    ]);
    for (const d of DISTINCT) expect(d.def.options.unordered, `${d.r.typeName}.${d.name}`).to.equal(true);
  });

  for (const { r, name, def } of DISTINCT)
    it(`${r.typeName}.${name}: a repeat is valid, sent once, and the read of it once plans no change`, () => {
      const [value] = elementsFor(def);
      expect(value, `${r.typeName}.${name}: a sample element`).to.be.a('string');
      const fields = r.schema.fields as Fields;
      const nulls = Object.fromEntries(
        Object.entries(fields).map(([n, f]) => [n, f.kind === 'block' && f.nesting !== 'single' ? [] : null]),
      ) as ObjectValue;
      const config: ObjectValue = { ...nulls, [name]: [value!, value!] };
      // Validation: no error of the list itself (other required arguments are not this test's).
      const diags = new Diagnostics();
      checkConfig(r, config, diags, {});
      const onList = diags.items.filter(
        (d) => d.severity === 'error' && (d.path ?? []).some((s) => 'attr' in s && s.attr === name),
      );
      expect(onList, `${r.typeName}.${name}: validation`).to.deep.equal([]);
      // Sent once.
      const sent = withoutRepeats(fields, { [name]: [value!, value!] }) as Record<string, unknown>;
      expect(sent[name]).to.deep.equal([value]);
      // The read gives it once: the state keeps the configured form, and the next plan changes nothing.
      const read = reconcileRead(fields, config, { ...config, [name]: [value!] });
      expect(read[name], 'the state after a read').to.deep.equal([value, value]);
      const { planned, requiresReplace } = planObject(fields, read, config, config);
      const listType = def.type.cty;
      expect(valueEquals(listType, planned[name] ?? null, read[name] ?? null), 'the plan after the read').to.equal(
        true,
      );
      expect(requiresReplace, 'no replacement').to.deep.equal([]);
    });
});
