/**
 * A provider block is never planned, so nothing fills a setting in after the configuration: a setting
 * served Computed only misleads clients. pulumi-terraform-bridge listed vdb's `insecure` (Optional and,
 * for its default, Computed) as required configuration (`config.defaults`). The rule, over both
 * providers: no provider setting is Computed on the wire; a default stays documented and `configure`
 * applies it after the environment.
 */
import { expect } from 'chai';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { SchemaBlock } from '../../packages/framework/src/schema/block.js';

function computedSettings(block: SchemaBlock, at: string, out: string[]): string[] {
  for (const [name, a] of Object.entries(block.attributes)) if (a.computed) out.push(`${at}${name}`);
  for (const [name, nested] of Object.entries(block.blockTypes)) computedSettings(nested.block, `${at}${name}.`, out);
  return out;
}

describe('schema: provider settings are never Computed', () => {
  for (const provider of ['sec', 'vdb'] as const)
    it(`${provider}: every setting of the provider block is Required or Optional only`, async () => {
      const { schema } = await loadProviderDef(provider);
      expect(Object.keys(schema.block.attributes).length).to.be.greaterThan(2);
      expect(computedSettings(schema.block, '', [])).to.deep.equal([]);
    });

  it('vdb: `insecure` keeps its documented default', async () => {
    const { schema } = await loadProviderDef('vdb');
    expect(schema.block.attributes.insecure).to.include({ optional: true, computed: false, default: false });
  });
});
