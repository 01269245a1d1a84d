/**
 * A platform-assigned value (`platformAssigned`: the SDK-style `id` Pulumi shows as `<resource>Id`)
 * may be written in a configuration only as the object's own, over every resource type that has one,
 * on random states of its schema:
 * - validation accepts it (the object is not known yet), so the code `pulumi import` prints, which
 *   repeats it, validates;
 * - planned against the object it names, it changes nothing;
 * - on create, or naming another object's value, the plan refuses it at its path, saying why and,
 *   for another value, both values;
 * - where the platform assigns a new one when a sibling changes (`changesWith`), a plan changing the
 *   sibling refuses the repeated value instead of planning a value the object will not have.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { ProviderDef, ResourceDef } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { configFromState } from '../../packages/framework/src/engine/resources/generate-config.js';
import { planObject } from '../../packages/framework/src/engine/plan/index.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import type { Diagnostic } from '../../packages/framework/src/engine/diagnostics/index.js';
import { blockShapeProblem } from '../../packages/framework/src/schema/block.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import { formatPath } from '../../packages/framework/src/schema/path.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { blockValueArb } from '../fuzz/values.js';
import { quietLogger } from '../support/quiet-logger.js';

const SEED = Number(process.env.PROPERTY_SEED ?? 58_001);
const RUNS = Number(process.env.PLATFORM_ASSIGNED_RUNS ?? 25);
const STATE_RULES = { itemCounts: false, noNullElements: true, known: true };
const PROVIDERS: ProviderDef<any, any>[] = [secDef, vdbDef];

/** The top-level attributes of a type that the platform assigns. */
const assignedOf = (r: ResourceDef<any, any>) =>
  Object.entries(r.schema.fields as Fields).flatMap(([name, def]) =>
    def.kind === 'attr' && def.options.platformAssigned === true ? [name] : [],
  );

/** Random states of a type whose assigned values are all set, as a created object's are. */
function statesOf(r: ResourceDef<any, any>, assigned: string[]): fc.Arbitrary<ObjectValue> {
  return blockValueArb(r.schema.block, 'state', r.schema.fields).filter(
    (s) =>
      blockShapeProblem(r.schema.block, s, STATE_RULES) === null &&
      assigned.every((name) => typeof s[name] === 'string' && s[name] !== ''),
  );
}

const at = (diagnostics: readonly Diagnostic[], name: string) =>
  diagnostics.filter((d) => d.path !== undefined && formatPath(d.path) === name);

describe('a platform-assigned value in a configuration: only the object’s own, over every type', function () {
  this.timeout(300_000);

  const types = PROVIDERS.flatMap((def) => def.resources.map((r) => ({ def, r, assigned: assignedOf(r) })));

  it('is the SDK-style `id` alone, which some types have', () => {
    const declared = types.filter((t) => t.assigned.length > 0).map((t) => t.assigned.join());
    expect(declared).to.not.deep.equal([]);
    expect(new Set(declared)).to.deep.equal(new Set(['id']));
  });

  types.forEach(({ def, r, assigned }, i) => {
    if (assigned.length === 0) return;
    const engine = new ProviderEngine(def, quietLogger, {});
    const fields = r.schema.fields as Fields;
    const name = assigned[0]!;
    const changesWith = (fields[name]!.options as { changesWith?: string[] }).changesWith ?? [];
    /** The engine's plan of `config` against `prior` (null on create), from Terraform's proposal. */
    const planned = (prior: ObjectValue | null, config: ObjectValue) =>
      engine.planResourceChange(
        r.typeName,
        prior,
        proposedNew(r.schema.block, prior, config) as ObjectValue,
        config,
        {},
      );

    it(`${r.typeName}: its own \`${name}\` validates and plans no change; none on create, no other, none that a change replaces`, () => {
      fc.assert(
        fc.property(statesOf(r, assigned), (state) => {
          const own = state[name] as string;
          const written = { ...configFromState(fields, state).config, [name]: own };

          // Validation does not know the object: it accepts the value, as the code Pulumi prints has it.
          expect(at(engine.validateResourceConfig(r.typeName, written).items, name)).to.deep.equal([]);

          // Against the object it names: no refusal, and the planned value is the object's.
          expect(at(planned(state, written).diags.items, name)).to.deep.equal([]);
          const proposed = proposedNew(r.schema.block, state, written) as ObjectValue;
          expect(planObject(fields, state, proposed, written).planned[name]).to.equal(own);

          // Another object's value.
          const other = { ...written, [name]: `${own}-other` };
          const refused = at(planned(state, other).diags.items, name);
          expect(refused).to.have.length(1);
          expect(refused[0]!.severity).to.equal('error');
          expect(refused[0]!.detail)
            .to.include(JSON.stringify(own))
            .and.include(JSON.stringify(`${own}-other`));

          // On create the platform has not assigned one yet.
          const created = at(planned(null, written).diags.items, name);
          expect(created).to.have.length(1);
          expect(created[0]!.detail).to.match(/assigns `id` when it creates the object/);
        }),
        { seed: SEED + i, numRuns: RUNS },
      );
    });

    if (changesWith.length > 0)
      it(`${r.typeName}: a change of ${changesWith.join(', ')} with \`${name}\` repeated is refused at \`${name}\``, () => {
        const plan = (state: ObjectValue, config: ObjectValue) =>
          planObject(fields, state, proposedNew(r.schema.block, state, config) as ObjectValue, config).planned;
        fc.assert(
          fc.property(statesOf(r, assigned), (state) => {
            const sibling = changesWith[0]!;
            const current = state[sibling];
            fc.pre(typeof current === 'string');
            const renamed = { ...configFromState(fields, state).config, [sibling]: `${current}x` };
            // A state whose change plans without it (random states break other rules too).
            fc.pre(!planned(state, renamed).diags.hasErrors);
            const written = { ...renamed, [name]: state[name]! };
            // The planner makes the value unknown (a new one comes); the plan refuses the configuration.
            expect(String(plan(state, written)[name])).to.not.equal(state[name]);
            const refused = planned(state, written).diags.items;
            expect(refused.map((d) => formatPath(d.path ?? []))).to.deep.equal([name]);
            expect(refused[0]!.detail).to.include(`when \`${sibling}\``);
          }),
          { seed: SEED + 500 + i, numRuns: RUNS, maxSkipsPerRun: 1000 },
        );
      });
  });
});
