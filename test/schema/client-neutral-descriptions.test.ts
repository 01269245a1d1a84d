/**
 * Schema descriptions name no client. pulumi-terraform-bridge drops every description whose text
 * outside fenced code says "terraform" or "hashicorp" in any case (pkg/tfgen/docs.go, `elide`), so
 * `pulumi package get-schema` showed 50 of our arguments with no description at all; OpenTofu users
 * read the same text. Client versions ("Terraform 1.11 and later") go on the generated pages, which
 * are Terraform's. The rule, over every schema the bridge or OpenTofu reads (the provider, resources,
 * data sources, ephemeral resources) of both providers. Actions and list resources are Terraform
 * features and may name it.
 */
import { expect } from 'chai';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { SchemaBlock } from '../../packages/framework/src/schema/block.js';

/** The bridge's test: the words, outside ``` fences, in either case of their first letter. */
const NAMES_A_CLIENT = /[Tt]erraform|[Hh]ashicorp/;
const outsideFences = (text: string) => text.split(/```[\s\S]*?```/).join('\n');

function clientNamingDescriptions(block: SchemaBlock, where: string, out: string[]): string[] {
  if (NAMES_A_CLIENT.test(outsideFences(block.description))) out.push(`${where}: ${block.description}`);
  for (const [name, a] of Object.entries(block.attributes))
    if (NAMES_A_CLIENT.test(outsideFences(a.description))) out.push(`${where}.${name}: ${a.description}`);
  for (const [name, nested] of Object.entries(block.blockTypes))
    clientNamingDescriptions(nested.block, `${where}.${name}`, out);
  return out;
}

describe('schema: descriptions name no client, so the Pulumi bridge keeps them', () => {
  for (const provider of ['sec', 'vdb'] as const)
    it(`${provider}: no description of the provider, a resource, a data source or an ephemeral resource says Terraform`, async () => {
      const def = await loadProviderDef(provider);
      const schemas: Array<[string, SchemaBlock]> = [
        ['provider', def.schema.block],
        ...def.resources.map((r): [string, SchemaBlock] => [r.typeName, r.schema.block]),
        ...def.dataSources.map((d): [string, SchemaBlock] => [`data.${d.typeName}`, d.schema.block]),
        ...(def.ephemeralResources ?? []).map((e): [string, SchemaBlock] => [
          `ephemeral.${e.typeName}`,
          e.schema.block,
        ]),
      ];
      expect(schemas.length).to.be.greaterThan(10);
      const found = schemas.flatMap(([where, block]) => clientNamingDescriptions(block, where, []));
      expect(found, found.join('\n')).to.deep.equal([]);
    });
});
