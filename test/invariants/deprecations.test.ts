/**
 * Every deprecation reaches what users' tools read (docs/decisions.md, "Deprecations on the wire"): in
 * GetProviderSchema as the executables serve it (the bytes built into the bundle), every deprecated
 * resource and data source type, nested block, attribute and function carries its message
 * (`deprecation_message`), its description ends with that message (a tool that shows only the
 * description, as terraform-ls shows it for the deprecation's reason and Pulumi's SDKs as the doc
 * comment, says it too), and the message says what to use instead, or that nothing replaces it.
 */
import { expect } from 'chai';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { deprecationNote } from '../../packages/framework/src/schema/define.js';
import { encodeSchemaResponses } from '../../packages/framework/src/server/provider-service.js';
import { decodeMessage, messageType } from '../../packages/framework/src/server/proto.js';
import sec from '../../src/resources/sec/index.js';
import vdb from '../../src/resources/vdb/index.js';
import { quietLogger } from '../support/quiet-logger.js';

interface WireBlock {
  attributes?: WireAttribute[];
  block_types?: { type_name: string; block: WireBlock }[];
  description?: string;
  deprecated?: boolean;
  deprecation_message?: string;
}
interface WireAttribute {
  name: string;
  description?: string;
  deprecated?: boolean;
  deprecation_message?: string;
}
interface Deprecated {
  readonly where: string;
  readonly message: string | undefined;
  readonly description: string | undefined;
}

/** Every deprecated thing of a block, at its path. */
function deprecatedIn(where: string, block: WireBlock, out: Deprecated[]): void {
  if (block.deprecated) out.push({ where, message: block.deprecation_message, description: block.description });
  for (const a of block.attributes ?? [])
    if (a.deprecated)
      out.push({ where: `${where}.${a.name}`, message: a.deprecation_message, description: a.description });
  for (const nb of block.block_types ?? []) deprecatedIn(`${where}.${nb.type_name}`, nb.block, out);
}

/** What the executable of `def` answers, decoded. */
function wireSchema(def: ProviderDef<any, any>) {
  const bytes = encodeSchemaResponses(new ProviderEngine(def, quietLogger, {})).schema;
  return decodeMessage(messageType('tfplugin6.GetProviderSchema.Response'), bytes) as {
    provider: { block: WireBlock };
    resource_schemas: Record<string, { block: WireBlock }>;
    data_source_schemas: Record<string, { block: WireBlock }>;
    ephemeral_resource_schemas?: Record<string, { block: WireBlock }>;
    list_resource_schemas?: Record<string, { block: WireBlock }>;
    action_schemas?: Record<string, { schema: { block: WireBlock } }>;
    functions?: Record<string, { description?: string; deprecation_message?: string }>;
  };
}

/** A message that points somewhere: another argument or type to use, or that nothing replaces it. */
const SAYS_WHAT_INSTEAD = /\b(use|read|instead|replaces?)\b/i;

describe('invariants: every deprecation is on the wire with its message, and its description says what to use', () => {
  const counts: string[] = [];
  after(() => console.log(`  deprecations on the wire: ${counts.join('; ')}`));

  for (const def of [sec, vdb] as ProviderDef<any, any>[])
    it(`${def.name}: types, blocks, attributes and functions`, () => {
      const wire = wireSchema(def);
      const found: Deprecated[] = [];
      deprecatedIn(`${def.name} provider`, wire.provider.block, found);
      for (const [kind, schemas] of [
        ['resource', wire.resource_schemas],
        ['data source', wire.data_source_schemas],
        ['ephemeral resource', wire.ephemeral_resource_schemas ?? {}],
        ['list resource', wire.list_resource_schemas ?? {}],
      ] as const)
        for (const [type, s] of Object.entries(schemas)) deprecatedIn(`${kind} ${type}`, s.block, found);
      for (const [type, a] of Object.entries(wire.action_schemas ?? {}))
        deprecatedIn(`action ${type}`, a.schema.block, found);
      for (const [name, fn] of Object.entries(wire.functions ?? {}))
        if (fn.deprecation_message)
          found.push({ where: `function ${name}`, message: fn.deprecation_message, description: fn.description });

      const declared = [...def.resources, ...def.dataSources].filter((t) => t.schema.deprecated !== undefined);
      for (const t of declared) expect(found.map((f) => f.where).join('\n')).to.include(`${t.typeName}`);
      for (const f of found) {
        expect(f.message, `${f.where}: deprecated with no deprecation_message`).to.be.a('string').and.not.equal('');
        expect(f.description ?? '', `${f.where}: the description ends with the message`).to.satisfy((d: string) =>
          d.endsWith(deprecationNote(f.message!)),
        );
        expect(f.message, `${f.where}: the message says what to use instead`).to.match(SAYS_WHAT_INSTEAD);
      }
      counts.push(`${def.name} ${found.length}`);
      expect(found.length, `${def.name}: its deprecations`).to.be.above(0);
    });
});
