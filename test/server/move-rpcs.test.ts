/**
 * MoveResourceState at the wire (in process, through the protobuf codec as grpc-js passes it): a
 * resource type's `moveFrom` (packages/framework/src/engine/contracts/move.ts) takes the state of another type, of this
 * provider or another, as Terraform sends it for a `moved` block across types; the state is the
 * target's, with its identity, and the read that follows keeps that identity. What no mover takes,
 * a mover that throws or returns what the schema has no place for, and a source that is not JSON,
 * each get one error that says so. The capability is announced only by a provider that has a mover.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import { DiagnosticError } from '../../packages/framework/src/engine/diagnostics/index.js';
import { identityType } from '../../packages/framework/src/engine/resources/identity.js';
import type { StateMover } from '../../packages/framework/src/engine/contracts/index.js';
import { namesProvider } from '../../packages/framework/src/engine/resources/resource-moves.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { decodeMsgpack, encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { classifyResponse, inProcessProvider, internalErrorText } from '../fuzz/answers.js';
import { moverProvider, Shelf, thing, type ThingFields } from '../support/moving-things.js';

type Msg = Record<string, any>;
const errors = (res: Msg) =>
  (res.diagnostics ?? []).filter((d: Msg) => d.severity === 1).map((d: Msg) => `${d.summary}: ${d.detail}`);

const THING = impliedType(thing.schema.block);
const THING_IDENTITY = identityType(thing.identity!);
const OLD_STATE = { id: 't-1', title: 'hello', size: 3, labels: { team: 'a' }, account: 'main' };

/** A MoveResourceState request, as Terraform 1.15 sends it for `moved { from = <source>  to = mover_thing.x }`. */
const moveRequest = (over: Msg = {}): Msg => ({
  source_provider_address: 'registry.terraform.io/acme/mover',
  source_type_name: 'mover_old_thing',
  source_schema_version: 1,
  source_state: { json: Buffer.from(JSON.stringify(OLD_STATE)) },
  target_type_name: 'mover_thing',
  source_private: Buffer.from('{"untracked_beside":["x"]}'),
  ...over,
});

/** The mover provider with mover_thing taking its state by `movers` only. */
function withMovers(movers: StateMover<ThingFields>[]): ProviderDef<any, Shelf> {
  const def = moverProvider(new Shelf());
  return {
    ...def,
    resources: def.resources.map((r) => (r.typeName === 'mover_thing' ? { ...r, moveFrom: movers } : r)),
  };
}

describe('wire: MoveResourceState (a `moved` block across resource types)', () => {
  it('announces move_resource_state only where a resource type takes moved state', async () => {
    for (const [def, offered] of [
      [moverProvider(), true],
      [withMovers([]), false],
      [secDef, false],
      [vdbDef, false],
    ] as const) {
      const p = inProcessProvider(def);
      const metadata = await p.call('GetMetadata', {});
      const schema = await p.call('GetProviderSchema', {});
      expect(metadata.server_capabilities.move_resource_state, def.name).to.equal(offered);
      expect(schema.server_capabilities.move_resource_state, def.name).to.equal(offered);
    }
  });

  it('moves the state of the old type: the target state and its identity, no private state; the read keeps them', async () => {
    const shelf = new Shelf();
    shelf.put({ id: 't-1', name: 'hello', size: 3, labels: [{ key: 'team', value: 'a' }], account: 'main' });
    const p = inProcessProvider(moverProvider(shelf));
    // Terraform moves state on a provider it has not configured.
    const res = await p.call('MoveResourceState', moveRequest());
    expect(errors(res)).to.deep.equal([]);
    const state = decodeMsgpack(THING, res.target_state.msgpack) as ObjectValue;
    expect(state).to.deep.equal({
      id: 't-1',
      name: 'hello',
      size: 3,
      secret: null,
      account: 'main',
      label: [{ key: 'team', value: 'a' }],
    });
    const identity = decodeMsgpack(THING_IDENTITY, res.target_identity.identity_data.msgpack);
    expect(identity).to.deep.equal({ id: 't-1', account: 'main' });
    expect(Buffer.from(res.target_private ?? []).length).to.equal(0);

    await p.call('ConfigureProvider', { terraform_version: '1.15.5', config: providerConfig() });
    const read = await p.call('ReadResource', {
      type_name: 'mover_thing',
      current_state: { msgpack: encodeMsgpack(THING, state) },
      current_identity: { identity_data: { msgpack: encodeMsgpack(THING_IDENTITY, identity) } },
    });
    expect(errors(read)).to.deep.equal([]);
    expect(decodeMsgpack(THING, read.new_state.msgpack)).to.deep.equal(state);
    expect(decodeMsgpack(THING_IDENTITY, read.new_identity.identity_data.msgpack)).to.deep.equal(identity);
  });

  it("gives no identity where the provider's default completes it (it is not configured): the read gives it", async () => {
    const shelf = new Shelf();
    shelf.put({ id: 't-1', name: 'hello', size: null, labels: [], account: 'main' });
    const p = inProcessProvider(moverProvider(shelf));
    const source = { id: 't-1', title: 'hello', size: null, labels: null, account: null };
    const res = await p.call(
      'MoveResourceState',
      moveRequest({ source_state: { json: Buffer.from(JSON.stringify(source)) } }),
    );
    expect(errors(res)).to.deep.equal([]);
    expect(res.target_identity).to.equal(null);
    const state = decodeMsgpack(THING, res.target_state.msgpack) as ObjectValue;
    expect(state).to.deep.include({ id: 't-1', account: null, label: [] });
    await p.call('ConfigureProvider', { terraform_version: '1.15.5', config: providerConfig() });
    const read = await p.call('ReadResource', {
      type_name: 'mover_thing',
      current_state: { msgpack: encodeMsgpack(THING, state) },
    });
    expect(errors(read)).to.deep.equal([]);
    expect(decodeMsgpack(THING_IDENTITY, read.new_identity.identity_data.msgpack)).to.deep.equal({
      id: 't-1',
      account: 'main',
    });
  });

  it("takes another provider's type by its address, or its last parts (some OpenTofu releases send the type alone)", async () => {
    const p = inProcessProvider(moverProvider());
    const widget = { json: Buffer.from('{"widget_id":"w-7","display_name":"gadget","colour":"red"}') };
    for (const address of ['registry.terraform.io/example/legacy', 'registry.opentofu.org/example/legacy', 'legacy']) {
      const res = await p.call(
        'MoveResourceState',
        moveRequest({ source_provider_address: address, source_type_name: 'legacy_widget', source_state: widget }),
      );
      expect(errors(res), address).to.deep.equal([]);
      expect(decodeMsgpack(THING, res.target_state.msgpack)).to.deep.include({ id: 'w-7', name: 'gadget' });
    }
    const other = await p.call(
      'MoveResourceState',
      moveRequest({
        source_provider_address: 'registry.terraform.io/other/legacy',
        source_type_name: 'legacy_widget',
        source_state: widget,
      }),
    );
    expect(errors(other)).to.deep.equal([
      'Cannot move resource state: The resource type mover_thing of the provider mover takes no state moved from the ' +
        'resource type "legacy_widget" of the provider "registry.terraform.io/other/legacy": it takes the state of ' +
        'mover_old_thing of mover, legacy_widget of example/legacy only. Import the object into mover_thing instead ' +
        'of moving it (an `import` block), and remove the old resource from the state.',
    ]);
    expect(other.target_state).to.equal(null);
  });

  it('an unknown source type, or a target that takes none, is one error naming the source and what is taken', async () => {
    const p = inProcessProvider(moverProvider());
    const unknown = await p.call('MoveResourceState', moveRequest({ source_type_name: 'mover_gadget' }));
    expect(errors(unknown)).to.deep.equal([
      'Cannot move resource state: The resource type mover_thing of the provider mover takes no state moved from the ' +
        'resource type "mover_gadget" of the provider "registry.terraform.io/acme/mover": it takes the state of ' +
        'mover_old_thing of mover, legacy_widget of example/legacy only. Import the object into mover_thing instead ' +
        'of moving it (an `import` block), and remove the old resource from the state.',
    ]);
    expect(unknown.target_state).to.equal(null);
    expect(unknown.target_identity).to.equal(null);
    const none = await p.call('MoveResourceState', moveRequest({ target_type_name: 'mover_note' }));
    expect(errors(none)).to.have.length(1);
    expect(errors(none)[0]).to.contain('takes no state moved from the resource type "mover_old_thing"');
    expect(errors(none)[0]).to.contain(': it takes none. Import the object into mover_note');
    const target = await p.call('MoveResourceState', moveRequest({ target_type_name: 'mover_gadget' }));
    expect(errors(target)).to.deep.equal([
      'Invalid request from Terraform: The provider mover has no resource type "mover_gadget".',
    ]);
    // A mover that declines (a schema version it does not know) leaves the source with none.
    const declined = await p.call('MoveResourceState', moveRequest({ source_schema_version: 0 }));
    expect(errors(declined)).to.deep.equal([
      'Cannot move resource state: The resource type mover_thing does not take this state of the resource type ' +
        '"mover_old_thing" of the provider "registry.terraform.io/acme/mover", written with its schema version 0. ' +
        'Import the object into mover_thing instead of moving it (an `import` block), and remove the old resource ' +
        'from the state.',
    ]);
  });

  it('a mover that throws: its DiagnosticError as it is, anything else with its message', async () => {
    const boom = inProcessProvider(
      withMovers([
        {
          sourceType: 'mover_old_thing',
          move: () => {
            throw new Error('no title');
          },
        },
      ]),
    );
    expect(errors(await boom.call('MoveResourceState', moveRequest()))).to.deep.equal([
      'Cannot move mover_old_thing to mover_thing: Internal provider error: no title. This is a bug in the provider; ' +
        'please report it.',
    ]);
    const refused = inProcessProvider(
      withMovers([
        {
          sourceType: 'mover_old_thing',
          move: () => {
            throw new DiagnosticError('Thing too old', 'Things made before 2020 cannot be moved.');
          },
        },
      ]),
    );
    const res = await refused.call('MoveResourceState', moveRequest());
    expect(errors(res)).to.deep.equal(['Thing too old: Things made before 2020 cannot be moved.']);
    expect(res.target_state).to.equal(null);
  });

  it('a mover that returns what the schema has no place for, or a state that names no object', async () => {
    const cases: [unknown, string][] = [
      [{ id: 't-1', name: 'a', size: 'big' }, 'size: expected a number, got string'],
      [{ id: 't-1', name: 'a', colour: 'red' }, 'colour is no attribute or block of the schema'],
      [{ id: 't-1', name: 'a', secret: 's3cret' }, 'secret is write-only, so a state never holds it'],
      [
        { id: 't-1', name: 'a', label: [{ key: 'k', value: 'v', extra: 1 }] },
        'label[0].extra is no attribute or block',
      ],
      [{ id: 't-1', name: 'a', label: 'k=v' }, 'label: expected an array of blocks'],
      [['t-1'], 'the model is not an object'],
      [{ id: 't-1', name: 'a', label: [null] }, 'label[0] is not an object'],
    ];
    for (const [model, problem] of cases) {
      const p = inProcessProvider(withMovers([{ sourceType: 'mover_old_thing', move: () => model as any }]));
      const res = await p.call('MoveResourceState', moveRequest());
      expect(errors(res), JSON.stringify(model)).to.have.length(1);
      expect(errors(res)[0]).to.contain(
        'Invalid moved state: The state of mover_thing made from the state of mover_old_thing does not fit its schema: ',
      );
      expect(errors(res)[0]).to.contain(problem);
      expect(res.target_state).to.equal(null);
    }
    const noId = inProcessProvider(withMovers([{ sourceType: 'mover_old_thing', move: () => ({ name: 'a' }) }]));
    expect(errors(await noId.call('MoveResourceState', moveRequest()))).to.deep.equal([
      'Cannot move resource state: The state of mover_thing made from the state of mover_old_thing lacks `id`, which ' +
        'name the object, so it names no object the provider can manage. Import the object into mover_thing instead ' +
        'of moving it (an `import` block), and remove the old resource from the state.',
    ]);
  });

  it('a source state or identity that is not a JSON object, an empty one, a version that is none', async () => {
    const p = inProcessProvider(moverProvider());
    const cases: [Msg, string][] = [
      [
        { source_state: { json: Buffer.from('{"id":') } },
        'Cannot move resource state: The stored state of mover_old_thing is not valid JSON: ',
      ],
      [
        { source_state: { json: Buffer.from('["t-1"]') } },
        'Cannot move resource state: The stored state of mover_old_thing is not a JSON object.',
      ],
      [
        { source_identity: { json: Buffer.from('"t-1"') } },
        'Cannot move resource state: The stored identity of mover_old_thing is not a JSON object.',
      ],
      [
        { source_state: { flatmap: { id: 't-1' } } },
        'Invalid request from Terraform: The state to move is empty: Terraform sends it as JSON.',
      ],
      [
        { source_schema_version: -1 },
        'Invalid request from Terraform: The source state has schema version -1, which is not valid.',
      ],
    ];
    for (const [over, expected] of cases) {
      const res = await p.call('MoveResourceState', moveRequest(over));
      expect(errors(res), JSON.stringify(over)).to.have.length(1);
      expect(errors(res)[0]).to.contain(expected);
      expect(res.target_state).to.equal(null);
    }
    // The source's identity, when it is one, reaches the mover.
    let seen: unknown;
    const spy = inProcessProvider(
      withMovers([
        {
          sourceType: 'mover_old_thing',
          move: (source) => {
            seen = source;
            return { id: 't-1', name: 'a' };
          },
        },
      ]),
    );
    const identity = { id: 't-1', account: 'main' };
    await spy.call(
      'MoveResourceState',
      moveRequest({ source_identity: { json: Buffer.from(JSON.stringify(identity)) } }),
    );
    expect(seen).to.deep.equal({
      provider: 'registry.terraform.io/acme/mover',
      typeName: 'mover_old_thing',
      schemaVersion: 1,
      state: OLD_STATE,
      identity,
    });
  });
});

describe('wire: MoveResourceState of any stored JSON', () => {
  it('answers a state or an error that names the input, never an internal error', async () => {
    const p = inProcessProvider(moverProvider());
    const field = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 8 }));
    const source = fc.oneof(
      fc.record(
        { id: field, title: field, size: field, labels: field, account: field, extra: field },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(source, fc.integer({ min: 0, max: 2 }), async (state, version) => {
        const res = await p.call(
          'MoveResourceState',
          moveRequest({ source_state: { json: Buffer.from(JSON.stringify(state)) }, source_schema_version: version }),
        );
        const kind = classifyResponse('MoveResourceState', res);
        expect(['success', 'error'], internalErrorText(res)).to.include(kind);
        if (kind === 'success') decodeMsgpack(THING, res.target_state.msgpack);
      }),
      // A stored value whose own `toString` is no function: String() of it throws (found by this property).
      { numRuns: 300, examples: [[{ labels: [{ toString: false }] }, 1]] },
    );
  });
});

describe('engine: which provider a mover names', () => {
  it('an address names itself; its last parts name every address ending so; an empty address nothing', () => {
    const cases: [string, string, boolean][] = [
      ['registry.terraform.io/example/legacy', 'registry.terraform.io/example/legacy', true],
      ['registry.terraform.io/example/legacy', 'REGISTRY.terraform.io/Example/legacy', true],
      ['registry.terraform.io/example/legacy', 'registry.opentofu.org/example/legacy', false],
      ['registry.terraform.io/example/legacy', 'legacy', true],
      ['example/legacy', 'registry.opentofu.org/example/legacy', true],
      ['example/legacy', 'registry.terraform.io/other/legacy', false],
      ['mover', 'registry.terraform.io/acme/mover', true],
      ['mover', 'registry.terraform.io/acme/movers', false],
      ['mover', '', false],
    ];
    for (const [declared, sent, names] of cases)
      expect(namesProvider(declared, sent), `${declared} ~ ${sent}`).to.equal(names);
  });
});

/** The mover provider's configuration: no setting (the default account). */
function providerConfig(): Msg {
  const type = impliedType(moverProvider().schema.block);
  return { msgpack: encodeMsgpack(type, { account: null }) };
}
