/**
 * Invariants of identities and list resources over both providers' declarations: every resource
 * declares an identity that its state can always give (string attributes, no secret in clear, one
 * required for import, a way back from derived values), and every list resource's filters are
 * arguments a `config` block can set.
 */
import { expect } from 'chai';
import { loadProviderDef } from '../../src/providers/describe.js';
import { identityDeclarationProblems } from '../../packages/framework/src/engine/resources/identity.js';
import type { AttrDef, Fields } from '../../packages/framework/src/schema/define.js';

for (const name of ['sec', 'vdb'] as const) {
  describe(`invariants: identities and list resources of ${name}`, () => {
    it('every resource declares an identity, and each one is sound', async () => {
      const def = await loadProviderDef(name);
      const problems = def.resources.flatMap((r) =>
        r.identity
          ? identityDeclarationProblems(r.identity, r.schema.fields).map((p) => `${r.typeName}: ${p}`)
          : [`${r.typeName}: declares no identity`],
      );
      expect(problems).to.deep.equal([]);
    });

    it('every list filter is an argument (required or optional), never computed', async () => {
      const def = await loadProviderDef(name);
      const problems: string[] = [];
      for (const r of def.resources) {
        if (!r.list) continue;
        for (const [field, f] of Object.entries(r.list.schema.fields as Fields)) {
          const o = (f as AttrDef<unknown>).options;
          if (f.kind !== 'attr' || o.computed || !(o.required || o.optional)) problems.push(`${r.typeName}.${field}`);
        }
        if (r.list.schema.block.description === '')
          problems.push(`${r.typeName}: the list resource has no description`);
      }
      expect(problems).to.deep.equal([]);
    });
  });
}
