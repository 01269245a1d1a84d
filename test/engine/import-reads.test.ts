/**
 * What a read puts in the state when no prior state says which form the user wrote (an import, a
 * list result), so that configuration Terraform generates from it plans: a required
 * argument the platform holds empty reads as empty, never null; a deprecated field the platform
 * reports in its own form reads into the field that replaces it (`readAs`), unless the prior state
 * uses the deprecated one. Through the engine, with a fake resource over an in-memory "API".
 */
import { expect } from 'chai';
import { attr, block, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { checkReadResult } from '../../packages/framework/src/engine/checks/index.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

/** How the platform holds a rule: a key with one value (the older form) or with a list of values. */
interface Held {
  id: string;
  accounts: string[];
  owner: string;
  keyId: string | null;
  note: string;
  pairs: { key: string; value: string | string[] }[];
  labels: string[];
  oldLabels: string[];
}

const key = attr.string({ required: true, description: 'key' });
const schema = resourceSchema(
  {
    id: attr.computedId(),
    accounts: attr.stringList({ required: true, description: 'may be empty on the platform' }),
    owner: attr.string({ required: true, description: 'may be blank on the platform' }),
    key_id: attr.string({ required: true, masked: true, description: 'the platform never returns it' }),
    note: attr.string({ optional: true, description: 'optional' }),
    pairs: block.set(
      { key, values: attr.stringList({ required: true, description: 'values' }) },
      { description: 'current form' },
    ),
    pair: block.set(
      { key, value: attr.string({ required: true, description: 'one value' }) },
      {
        description: 'older form',
        deprecated: 'Use `pairs`.',
        readAs: { field: 'pairs', convert: (p: { key: string; value: string }) => ({ key: p.key, values: [p.value] }) },
      },
    ),
    labels: attr.stringSet({ optional: true, description: 'current' }),
    old_labels: attr.stringSet({
      optional: true,
      description: 'older',
      deprecated: 'Use `labels`.',
      readAs: { field: 'labels' },
    }),
  },
  { description: 'a rule' },
);
type Fields = typeof schema.fields;

function engineOver(api: Map<string, Held>): ProviderEngine<Map<string, Held>> {
  const rule = resource<Fields, Map<string, Held>>({
    typeName: 'fake_rule',
    schema,
    importState: async (id) => ({ id }),
    create: async () => {
      throw new Error('not used');
    },
    async read(prior, ctx) {
      const h = ctx.client.get(prior.id!)!;
      return {
        id: h.id,
        accounts: h.accounts,
        owner: h.owner,
        key_id: h.keyId as string, // null: not returned
        note: h.note,
        // The platform's shape says which form a value has; it knows nothing of the configuration.
        pairs: h.pairs.flatMap((p) => (Array.isArray(p.value) ? [{ key: p.key, values: p.value }] : [])),
        pair: h.pairs.flatMap((p) => (typeof p.value === 'string' ? [{ key: p.key, value: p.value }] : [])),
        labels: h.labels,
        old_labels: h.oldLabels,
      };
    },
    delete: async () => {},
  });
  const def = provider({
    name: 'fake',
    version: '0',
    schema: resourceSchema({}, { description: 'fake' }),
    configure: async (_c, _ctx) => api,
    resources: [rule],
    dataSources: [],
  });
  return new ProviderEngine(def, silent, {});
}

async function imported(held: Held): Promise<ObjectValue> {
  const engine = engineOver(new Map([[held.id, held]]));
  await engine.configureProvider('1.11.4', {});
  const start = await engine.importResourceState('fake_rule', held.id);
  const read = await engine.readResource('fake_rule', start.state!, {});
  expect(read.diags.items).to.deep.equal([]);
  expect(checkReadResult(schema.block, read.state!)).to.deep.equal([]);
  return read.state!;
}

async function reread(held: Held, prior: ObjectValue): Promise<ObjectValue> {
  const engine = engineOver(new Map([[held.id, held]]));
  await engine.configureProvider('1.11.4', {});
  return (await engine.readResource('fake_rule', prior, {})).state!;
}

const held = (over: Partial<Held> = {}): Held => ({
  ...{ id: 'r-1', accounts: [], owner: '', keyId: null, note: '', pairs: [], labels: [], oldLabels: [] },
  ...over,
});

describe('engine: what an import reads, so that generated configuration plans', () => {
  it('a required argument the platform holds empty reads as empty, never null; an optional one as unset', async () => {
    const state = await imported(held());
    expect(state).to.deep.include({ accounts: [], owner: '', note: null });
    // A value the platform never returns has no empty form to stand for it: it is null, for the user to fill in.
    expect(state.key_id).to.equal(null);
  });

  it('a required argument the platform emptied behind Terraform reads as empty', async () => {
    const prior = await imported(held({ accounts: ['111'], owner: 'ops' }));
    expect(prior).to.deep.include({ accounts: ['111'], owner: 'ops' });
    expect(await reread(held({ accounts: [], owner: '' }), prior)).to.deep.include({ accounts: [], owner: '' });
  });

  it('a deprecated block the platform reports in its own form reads into the block that replaces it', async () => {
    const pairs = [
      { key: 'env', value: 'sandbox' },
      { key: 'team', value: ['a', 'b'] },
    ];
    const state = await imported(held({ pairs }));
    expect(state.pair).to.deep.equal([]);
    expect(state.pairs).to.have.deep.members([
      { key: 'env', values: ['sandbox'] },
      { key: 'team', values: ['a', 'b'] },
    ]);
    // Read again from that state, it stays in the current form.
    expect(await reread(held({ pairs }), state)).to.deep.include({ pair: [] });
  });

  it('a prior state that uses the deprecated form keeps it', async () => {
    const h = held({ pairs: [{ key: 'env', value: 'sandbox' }], oldLabels: ['x'] });
    const deprecatedForms: ObjectValue = { pair: [{ key: 'env', value: 'sandbox' }], pairs: [], old_labels: ['x'] };
    const prior: ObjectValue = { ...(await imported(held())), ...deprecatedForms };
    expect(await reread(h, prior)).to.deep.include(deprecatedForms);
  });

  it('a deprecated argument reads into its replacement, beside what that holds, each value once', async () => {
    const state = await imported(held({ labels: ['a'], oldLabels: ['a', 'b'] }));
    expect(state.old_labels).to.equal(null);
    expect(state.labels).to.have.members(['a', 'b']).and.have.length(2);
  });

  // Schemas are built on first use (packages/framework/src/schema/define.ts), and the build encodes every type's schema
  // (scripts/bundle.mjs), so a declaration like this one cannot ship.
  it('a schema that reads a field into one that cannot replace it is refused when it is built', () => {
    const declare = (readAs: { field: string }, deprecated?: string) => () =>
      resourceSchema(
        {
          now: attr.stringList({ optional: true, description: 'now' }),
          // biome-ignore lint/suspicious/noThenProperty: an attribute's name in a schema, never awaited.
          then: attr.stringList({ optional: true, description: 'then', readAs, ...(deprecated ? { deprecated } : {}) }),
        },
        { description: 'x' },
      ).block;
    expect(declare({ field: 'now' }, 'Use `now`.')).to.not.throw();
    expect(declare({ field: 'now' })).to.throw(/then is read as now/);
    expect(declare({ field: 'gone' }, 'Use `now`.')).to.throw(/then is read as gone/);
  });
});
