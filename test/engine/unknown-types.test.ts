/**
 * A type name the provider does not declare gets one error wherever it arrives: summary
 * `Unknown <kind>`, detail `The provider <name> has no <kind> "<type name>".` (engine/context/type-registry.ts).
 * The rule over every engine entry point that takes a type name, for both providers; the server says
 * the same words (test/server, test/fuzz).
 */
import { expect } from 'chai';
import type { Diagnostics } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import type { TypeKind } from '../../packages/framework/src/engine/context/index.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { quietLogger } from '../support/quiet-logger.js';

const NAME = 'nope_nothing';

/** Each entry point with a type name, the kind it reports, and how to get its diagnostics. */
const ENTRY_POINTS: Array<[string, TypeKind, (e: ProviderEngine<unknown>) => Promise<Diagnostics>]> = [
  ['validateResourceConfig', 'resource type', async (e) => e.validateResourceConfig(NAME, {})],
  ['planResourceChange', 'resource type', async (e) => e.planResourceChange(NAME, null, {}, {}, {}).diags],
  ['applyResourceChange', 'resource type', async (e) => (await e.applyResourceChange(NAME, null, {}, {})).diags],
  ['upgradeResourceState', 'resource type', async (e) => e.upgradeResourceState(NAME, 0, '{}').diags],
  ['readResource', 'resource type', async (e) => (await e.readResource(NAME, {}, {})).diags],
  ['importResourceState', 'resource type', async (e) => (await e.importResourceState(NAME, 'x')).diags],
  ['importWithIdentity', 'resource type', async (e) => (await e.importWithIdentity(NAME, { id: 'x' })).diags],
  ['upgradeResourceIdentity', 'resource type', async (e) => e.upgradeResourceIdentity(NAME, 0, '{}').diags],
  ['generateResourceConfig', 'resource type', async (e) => e.generateResourceConfig(NAME, {}).diags],
  ['validateListResourceConfig', 'list resource', async (e) => e.validateListResourceConfig(NAME, {})],
  [
    'listResource',
    'list resource',
    async (e) => {
      for await (const event of e.listResource(NAME, {}, { includeResource: false, limit: 10 }))
        if (event.diags) return event.diags;
      throw new Error('no event');
    },
  ],
  ['validateDataResourceConfig', 'data source', async (e) => e.validateDataResourceConfig(NAME, {})],
  ['readDataSource', 'data source', async (e) => (await e.readDataSource(NAME, {})).diags],
  ['validateEphemeralResourceConfig', 'ephemeral resource', async (e) => e.validateEphemeralResourceConfig(NAME, {})],
  ['openEphemeralResource', 'ephemeral resource', async (e) => (await e.openEphemeralResource(NAME, {})).diags],
  ['renewEphemeralResource', 'ephemeral resource', async (e) => (await e.renewEphemeralResource(NAME, {})).diags],
  ['closeEphemeralResource', 'ephemeral resource', async (e) => e.closeEphemeralResource(NAME, {})],
  ['validateActionConfig', 'action', async (e) => e.validateActionConfig(NAME, {})],
  ['planAction', 'action', async (e) => e.planAction(NAME, {})],
  [
    'invokeAction',
    'action',
    async (e) => {
      for await (const event of e.invokeAction(NAME, {})) if (event.completed) return event.completed;
      throw new Error('no completion');
    },
  ],
];

describe('engine: one error for a type name the provider does not declare', () => {
  for (const provider of ['sec', 'vdb'] as const)
    it(`${provider}: every entry point says "Unknown <kind>" and names the provider and the kind`, async () => {
      const engine = new ProviderEngine((await loadProviderDef(provider)) as never, quietLogger, {});
      const found: string[] = [];
      for (const [method, , call] of ENTRY_POINTS) {
        const items = (await call(engine as ProviderEngine<unknown>)).items;
        found.push(`${method}: ${items.map((d) => `${d.severity} ${d.summary}: ${d.detail}`).join(' / ')}`);
      }
      expect(found).to.deep.equal(
        ENTRY_POINTS.map(
          ([method, kind]) => `${method}: error Unknown ${kind}: The provider ${provider} has no ${kind} "${NAME}".`,
        ),
      );
    });
});
