/**
 * Random configurations that fit each schema (fast-check, fixed seeds): for every resource type of
 * both providers, ValidateResourceConfig and then PlanResourceChange on create (the proposed new
 * state computed as Terraform does) answer without an internal error; user-facing validation errors
 * are fine. A plan that succeeds for a configuration that validated must pass Terraform's own plan
 * checks. Data sources and the provider block are validated the same way.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import { encodeMsgpack, decodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import type { ObjectValue, Value } from '../../packages/framework/src/schema/value.js';
import { proposedNew, checkPlannedState } from '../../packages/framework/src/engine/checks/index.js';
import { formatProblem } from '../../packages/framework/src/engine/checks/util.js';
import { catalogueOf, type SchemaEntry } from './hostile.js';
import { blockValueArb } from './values.js';
import { classifyResponse, inProcessProvider, internalErrorText } from './answers.js';

const RUNS_PER_TYPE = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? 5_150_100);

const dyn = (entry: SchemaEntry, v: Value) => ({ msgpack: encodeMsgpack(entry.type, v) });

for (const def of [secDef, vdbDef]) {
  describe(`random configurations that fit the ${def.name} schemas (fast-check)`, function () {
    this.timeout(120_000);
    const catalogue = catalogueOf(def);
    const provider = inProcessProvider(def);
    /** How many runs got past validation and planned: shows the generator reaches the planner. */
    const planned = new Map<string, number>();

    after(() => {
      const reached = [...planned.values()].reduce((a, b) => a + b, 0);
      console.log(
        `      ${def.name}: ${catalogue.resources.length} resource types × ${RUNS_PER_TYPE} configurations, ${reached} validated and planned without error`,
      );
    });

    catalogue.resources.forEach((entry, i) => {
      it(`${entry.name}: validates and plans a create without an internal error`, async () => {
        await fc.assert(
          fc.asyncProperty(blockValueArb(entry.block, 'config', entry.fields), async (config: ObjectValue) => {
            const validated = await provider.call('ValidateResourceConfig', {
              type_name: entry.name,
              config: dyn(entry, config),
            });
            const validation = classifyResponse('ValidateResourceConfig', validated);
            expect(validation, internalErrorText(validated)).to.be.oneOf(['success', 'error']);

            const proposed = proposedNew(entry.block, null, config);
            const res = await provider.call('PlanResourceChange', {
              type_name: entry.name,
              prior_state: dyn(entry, null),
              proposed_new_state: dyn(entry, proposed),
              config: dyn(entry, config),
            });
            const plan = classifyResponse('PlanResourceChange', res);
            expect(plan, internalErrorText(res)).to.be.oneOf(['success', 'error']);
            if (validation === 'success' && plan === 'success') {
              const plannedState = decodeMsgpack(entry.type, res.planned_state.msgpack);
              expect(checkPlannedState(entry.block, null, config, plannedState).map(formatProblem)).to.deep.equal([]);
              planned.set(entry.name, (planned.get(entry.name) ?? 0) + 1);
            }
          }),
          { seed: SEED + i, numRuns: RUNS_PER_TYPE },
        );
      });
    });

    it('validates random data source and provider configurations without an internal error', async () => {
      const targets: [SchemaEntry, 'ValidateDataResourceConfig' | 'ValidateProviderConfig'][] = [
        ...catalogue.dataSources.map((d): [SchemaEntry, 'ValidateDataResourceConfig'] => [
          d,
          'ValidateDataResourceConfig',
        ]),
        [catalogue.provider, 'ValidateProviderConfig'],
      ];
      for (const [j, [entry, rpc]] of targets.entries()) {
        await fc.assert(
          fc.asyncProperty(blockValueArb(entry.block, 'config', entry.fields), async (config: ObjectValue) => {
            const res = await provider.call(rpc, { type_name: entry.name, config: dyn(entry, config) });
            expect(classifyResponse(rpc, res), `${entry.name}: ${internalErrorText(res)}`).to.be.oneOf([
              'success',
              'error',
            ]);
          }),
          { seed: SEED + 1000 + j, numRuns: RUNS_PER_TYPE },
        );
      }
    });
  });
}
