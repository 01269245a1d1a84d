/**
 * The test kit's in-process harness (`ProviderHarness`, packages/framework/src/testing/harness.ts) on a small
 * provider defined as an author would (memo-provider.ts): every call as Terraform makes it, models in
 * and out as plain objects, errors as a HarnessError with their attribute paths, warnings kept.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ApiError,
  attr,
  listedInOneCall,
  provider,
  providerSchema,
  resource,
  resourceSchema,
  rules,
  t,
  UNKNOWN,
  validators,
  type Fields,
  type ResourceDef,
  type ResourceSchema,
} from '../../packages/framework/src/index.js';
import { declarationProblems } from '../../packages/framework/src/engine/contracts/index.js';
import { HarnessError, ProviderHarness } from '../../packages/framework/src/testing.js';
import { memoProvider, NoteStore } from './memo-provider.js';
import { ProviderCallError, TerraformClient } from '../../src/tfclient/terraform-client.js';

/** The rejection of `call`, which must be a HarnessError. */
async function rejection(call: Promise<unknown> | (() => unknown)): Promise<HarnessError> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (err) {
    expect(err).to.be.instanceOf(HarnessError);
    return err as HarnessError;
  }
  throw new Error('the call did not fail');
}

const note = (key: string, text: string, more: Record<string, unknown> = {}) => ({ key, text, ...more });

/** A provider `acme/<name>` with no settings, serving one resource type, for a test of one rule. */
function oneTypeProvider<F extends Fields, C>(name: string, client: C, type: ResourceDef<F, C>) {
  return provider({
    namespace: 'acme',
    name,
    version: '0.0.1',
    schema: providerSchema({}, { description: `The ${name} provider.` }),
    configure: async () => client,
    resources: [type],
    dataSources: [],
  });
}

/** A type whose platform keeps each object as configured: only its schema's rules are at work. */
function asConfigured<F extends Fields>(
  typeName: string,
  schema: ResourceSchema<F>,
  more: Partial<ResourceDef<F, object>> = {},
) {
  return resource<F, object>({
    typeName,
    schema,
    create: async (plan) => ({ ...plan, id: 'x' }),
    read: async (prior) => prior,
    update: async (plan) => plan,
    delete: async () => {},
    ...more,
  });
}

describe('the test kit: ProviderHarness', () => {
  let store: NoteStore;
  let memo: ProviderHarness;
  beforeEach(async () => {
    store = new NoteStore();
    memo = await ProviderHarness.start(memoProvider(store), { config: { region: 'eu' } });
  });

  it("validates the provider's configuration before it configures the provider", async () => {
    const err = await rejection(ProviderHarness.start(memoProvider(store), { config: { region: 'mars' } }));
    expect(err.operation).to.equal('configure of provider memo');
    expect(err.errors.map((d) => d.path)).to.deep.equal(['region']);
    expect(err.message).to.match(/^configure of provider memo failed:\n {2}Error: .* \(at region\)\n {4}.*mars/);
  });

  it('refuses a provider whose declarations are wrong before anything else, naming each type and field', async () => {
    const definition = memoProvider(store);
    const broken = resourceSchema(
      {
        id: attr.computedId('Its id.'),
        both: attr.string({ required: true, computed: true, description: 'Required and computed.' }),
      },
      { description: 'A broken type.' },
    );
    const [first] = definition.resources;
    const wrong = {
      ...definition,
      resources: [...definition.resources, { ...first!, typeName: 'memo_broken', schema: broken }],
    };
    const err = await rejection(ProviderHarness.start(wrong, { config: { region: 'eu' } }));
    expect(err.operation).to.equal('declaration of provider memo');
    expect(err.errors.map((d) => d.detail)).to.deep.equal([
      'resource type memo_broken: both cannot be required and optional/computed',
    ]);
    expect(declarationProblems(definition), 'the provider as declared').to.deep.equal([]);
  });

  it('refuses a validator of another kind of value than its attribute, and a default its type or validators refuse', () => {
    const definition = memoProvider(store);
    const fields = {
      id: attr.computedId('Its id.'),
      // Each line a mistake TypeScript lets through (a validator typed loosely, a default within the type).
      port: attr.number({
        optional: true,
        description: 'A port.',
        validate: [validators.lengthBetween(1, 5) as never],
      }),
      count: attr.int({ optional: true, default: 2.5, description: 'How many.' }),
      zone: attr.string({
        optional: true,
        default: 'mars',
        description: 'Where.',
        validate: [validators.oneOf('eu', 'us')],
      }),
      tags: attr.stringList({
        optional: true,
        description: 'Tags.',
        validate: [validators.each(validators.whole()) as never],
      }),
      sizes: attr.of(t.list(t.number))({
        optional: true,
        description: 'Sizes.',
        validate: [validators.sizeBetween(1, 3)],
      }),
    };
    const [first] = definition.resources;
    const wrong = {
      ...definition,
      resources: [{ ...first!, typeName: 'memo_loose', schema: resourceSchema(fields, { description: 'Loose.' }) }],
    };
    expect(declarationProblems(wrong)).to.deep.equal([
      'resource type memo_loose: `port` is a number, but has a validator of string values (1 to 5 characters long)',
      'resource type memo_loose: `count`: its default 2.5 is refused by its own validator: it must be a whole number, got 2.5',
      'resource type memo_loose: `zone`: its default "mars" is refused by its own validator: it must be one of "eu", "us", got "mars"',
      'resource type memo_loose: `tags` has elements that are a string, but has a validator of number values (a whole number)',
    ]);
  });

  it('refuses reads by listing without findCreated, whose import id names the object in the listing', () => {
    const definition = memoProvider(store);
    const [first] = definition.resources;
    const listing = {
      pages: listedInOneCall(async () => [] as { key: string }[]),
      idOf: (item: { key: string }) => item.key,
      read: async () => null,
    };
    const wrong = { ...definition, resources: [{ ...first!, readsByListing: listing as never }] };
    expect(declarationProblems(wrong)).to.deep.equal([
      'resource type memo_note: readsByListing needs findCreated, whose importId names the object in the listing',
    ]);
  });

  it("`serve` answers a provider whose declarations are wrong with the schema call's error, as the plugin framework does", async () => {
    const framework = pathToFileURL(join(import.meta.dirname, '../../packages/framework/src/index.js')).href;
    const dir = mkdtempSync(join(tmpdir(), 'keel-broken-'));
    const program = join(dir, 'main.mjs');
    writeFileSync(
      program,
      `import { attr, provider, providerSchema, resource, resourceSchema, serve } from ${JSON.stringify(framework)};
      const schema = resourceSchema(
        { id: attr.computedId('Its id.'), size: attr.number({ required: true, computed: true, description: 'A size.' }) },
        { description: 'A box.' },
      );
      serve(provider({
        namespace: 'acme', name: 'box', version: '0.0.1',
        schema: providerSchema({}, { description: 'Boxes.' }),
        configure: async () => ({}),
        resources: [resource({ typeName: 'box_box', schema, read: async () => null, create: async () => ({}),
          update: async () => ({}), delete: async () => {} })],
        dataSources: [],
      }));\n`,
    );
    const executable = join(dir, 'terraform-provider-box');
    writeFileSync(executable, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(program)}\n`, {
      mode: 0o755,
    });
    try {
      const error = await TerraformClient.start(executable).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ProviderCallError);
      expect((error as ProviderCallError).rpc).to.equal('GetProviderSchema');
      expect((error as ProviderCallError).diagnostics.map((d) => [d.summary, d.detail])).to.deep.equal([
        [
          'The box provider cannot start',
          "The provider's declarations are wrong, so it serves nothing:\n" +
            '- resource type box_box: size cannot be required and optional/computed',
        ],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds an apply result to the plan: a value stored in another form is the inconsistent result Terraform reports, unless the attribute declares the two equal', async () => {
    // A platform that stores names in capitals.
    const shouting = (equal?: (a: string, b: string) => boolean) => {
      const schema = resourceSchema(
        {
          id: attr.computedId('Its id.'),
          name: attr.string({ required: true, description: 'Its name.', ...(equal ? { equal } : {}) }),
        },
        { description: 'A tag.' },
      );
      return oneTypeProvider(
        'loud',
        new Map<string, string>(),
        resource<typeof schema.fields, Map<string, string>>({
          typeName: 'loud_tag',
          schema,
          create: async (plan, ctx) => {
            ctx.client.set('t1', plan.name.toUpperCase());
            return { id: 't1', name: ctx.client.get('t1')! };
          },
          read: async (prior, ctx) =>
            ctx.client.has(prior.id!) ? { id: prior.id, name: ctx.client.get(prior.id!)! } : null,
          update: async (plan) => plan,
          delete: async (prior, ctx) => void ctx.client.delete(prior.id!),
        }),
      );
    };
    const strict = await ProviderHarness.start(shouting());
    const err = await rejection(strict.create('loud_tag', { name: 'quiet' }));
    expect(err.errors.map((d) => [d.summary, d.path])).to.deep.equal([
      ['Provider produced inconsistent result after apply', 'name'],
    ]);
    expect(err.errors[0]!.detail).to.include('was "quiet", but now "QUIET"');

    const caseless = await ProviderHarness.start(shouting((a, b) => a.toLowerCase() === b.toLowerCase()));
    expect(
      await caseless.create('loud_tag', { name: 'quiet' }),
      'the configured form, the same to the platform',
    ).to.deep.equal({
      id: 't1',
      name: 'quiet',
    });
  });

  it('validates whole numbers, lengths in characters and sizes of collections, at their paths', async () => {
    const schema = resourceSchema(
      {
        id: attr.computedId('Its id.'),
        count: attr.int({ optional: true, description: 'How many.' }),
        port: attr.int({ optional: true, description: 'A port.', validate: [validators.intBetween(1, 65535)] }),
        code: attr.string({ optional: true, description: 'A code.', validate: [validators.lengthBetween(2, 3)] }),
        tags: attr.stringList({ optional: true, description: 'Tags.', validate: [validators.sizeBetween(1, 2)] }),
      },
      { description: 'A gauge.' },
    );
    const gauges = await ProviderHarness.start(oneTypeProvider('gauge', {}, asConfigured('gauge_gauge', schema)));
    const said = (config: Record<string, unknown>) =>
      gauges.validate('gauge_gauge', config).map((d) => `${d.path}: ${d.detail}`);
    expect(said({ count: 3, port: 443, code: 'été', tags: ['a', 'b'] }), 'é is one character').to.deep.equal([]);
    expect(said({ count: 2.5, port: 1.5, code: 'a', tags: ['a', 'b', 'c'] })).to.deep.equal([
      'count: The value must be a whole number, got 2.5.',
      'port: The value must be a whole number from 1 to 65535, got 1.5.',
      'code: The value must be 2 to 3 characters long, got 1.',
      'tags: The value must hold 1 to 2 elements, got 3.',
    ]);
    expect(said({ code: '👍🏽👍🏽' }), 'two code points each').to.deep.equal([
      'code: The value must be 2 to 3 characters long, got 4.',
    ]);
  });

  it("a validator of the author's own that throws is said at its attribute's path, as the provider's mistake", async () => {
    const spread = {
      description: 'spread out',
      check: (v: unknown) => ([...(v as string[])].length > 9 ? 'is long' : undefined),
    };
    const schema = resourceSchema(
      {
        id: attr.computedId('Its id.'),
        size: attr.number({ optional: true, description: 'A size.', validate: [spread as never] }),
      },
      { description: 'A gauge.' },
    );
    const gauges = await ProviderHarness.start(oneTypeProvider('gauge', {}, asConfigured('gauge_gauge', schema)));
    const [problem, ...more] = gauges.validate('gauge_gauge', { size: 3 });
    expect(more).to.deep.equal([]);
    expect(problem!.path).to.equal('size');
    expect(problem!.detail).to.match(
      /^The value could not be judged by its validator \(spread out: .*not iterable.*\), a mistake in the provider's declaration\.$/,
    );
  });

  it('checks rules across arguments: conflicting, exactly one of, at least one of, required with; unknown values wait', async () => {
    const schema = resourceSchema(
      {
        id: attr.computedId('Its id.'),
        cidr: attr.string({ optional: true, description: 'A range.' }),
        host: attr.string({ optional: true, description: 'A host.' }),
        port: attr.int({ optional: true, description: 'A port.' }),
        user: attr.string({ optional: true, description: 'A user.' }),
        password: attr.string({ optional: true, sensitive: true, description: 'A password.' }),
        tags: attr.stringList({ optional: true, description: 'Tags.' }),
      },
      { description: 'A target.' },
    );
    const definition = oneTypeProvider(
      'net',
      {},
      asConfigured('net_target', schema, {
        argumentRules: [
          rules.exactlyOneOf('cidr', 'host'),
          rules.conflicting('cidr', 'port'),
          rules.requiredWith('user', 'password'),
          rules.atLeastOneOf('tags', 'user'),
        ],
      }),
    );
    const net = await ProviderHarness.start(definition);
    const said = (config: Record<string, unknown>) =>
      net.validate('net_target', config).map((d) => `${d.path ?? '-'}: ${d.summary}: ${d.detail}`);
    expect(said({ host: 'h', tags: ['a'] })).to.deep.equal([]);
    expect(said({ cidr: '10.0.0.0/8', host: 'h', port: 22, user: 'u', tags: [] })).to.deep.equal([
      'host: Conflicting arguments: Only one of `cidr`, `host` may be set; `cidr`, `host` are.',
      'port: Conflicting arguments: Only one of `cidr`, `port` may be set; `cidr`, `port` are.',
      'user: Missing argument: `user` is set, so `password` must be set too.',
    ]);
    // An empty list says nothing (null ≡ empty).
    expect(said({ tags: [] })).to.deep.equal([
      '-: Missing argument: Exactly one of `cidr`, `host` must be set; none is.',
      '-: Missing argument: At least one of `tags`, `user` must be set; none is.',
    ]);
    // Not known yet: the plan that knows it decides.
    expect(said({ host: UNKNOWN, tags: UNKNOWN, user: UNKNOWN })).to.deep.equal([]);
    const wrong = {
      ...definition,
      resources: [{ ...definition.resources[0]!, argumentRules: [rules.conflicting('cidr', 'nope')] }],
    };
    expect(declarationProblems(wrong)).to.deep.equal([
      'resource type net_target: its rule conflicting names `nope`, which is no top-level argument',
    ]);
  });

  it('creates: the state as the platform made it, with defaults filled; no record written', async () => {
    const created = await memo.create('memo_note', note('a', 'one', { link: [{ url: 'https://x' }] }));
    expect(created).to.deep.equal({
      id: 'a',
      key: 'a',
      text: 'one',
      priority: 1,
      color: null,
      revision: 1,
      created_at: 't1',
      link: [{ url: 'https://x', weight: 1 }],
    });
    expect(store.notes.get('a')?.text).to.equal('one');
    expect(memo.warnings).to.deep.equal([]);
    expect(existsSync(join(process.cwd(), '.terraform', 'acme-creates'))).to.equal(false);
  });

  it('plans an update: unknown only where the schema says, as Terraform reads the plan', async () => {
    const created = await memo.create('memo_note', note('a', 'one'));
    const plan = await memo.plan('memo_note', { prior: created, config: note('a', 'two') });
    expect(plan.action).to.equal('update');
    expect(plan.planned).to.deep.equal({ ...created, text: 'two', revision: UNKNOWN });
    expect(plan.changes).to.deep.equal(['text', 'revision']);
    expect(plan.requiresReplace).to.deep.equal([]);
    expect(plan.diagnostics).to.deep.equal([]);

    // A change to a block alone changes no computed value; the same configuration plans nothing.
    const linked = await memo.plan('memo_note', { prior: created, config: note('a', 'one', { link: [{ url: 'u' }] }) });
    expect([linked.action, linked.changes]).to.deep.equal(['update', ['link']]);
    const same = await memo.plan('memo_note', { prior: created, config: note('a', 'one') });
    expect([same.action, same.changes, same.planned]).to.deep.equal(['no-op', [], created]);
  });

  it('applies an update, and a no-op plan without calling the platform', async () => {
    const created = await memo.create('memo_note', note('a', 'one'));
    const updated = await memo.apply('memo_note', { prior: created, config: note('a', 'two', { priority: 3 }) });
    expect(updated).to.deep.include({ text: 'two', priority: 3, revision: 2, created_at: 't1' });
    const again = await memo.apply('memo_note', { prior: updated, config: note('a', 'two', { priority: 3 }) });
    expect(again).to.deep.equal(updated);
    expect(store.notes.get('a')?.revision).to.equal(2);
  });

  it('plans a change of key as a replacement, planned as a create, and applies it as a destroy then a create', async () => {
    const created = await memo.create('memo_note', note('a', 'one'));
    const plan = await memo.plan('memo_note', { prior: created, config: note('b', 'one') });
    expect(plan.action).to.equal('replace');
    expect(plan.requiresReplace).to.deep.equal(['key']);
    expect(plan.planned).to.deep.equal({
      ...created,
      id: UNKNOWN,
      key: 'b',
      revision: UNKNOWN,
      created_at: UNKNOWN,
    });
    const replaced = await memo.apply('memo_note', { prior: created, config: note('b', 'one') });
    expect(replaced).to.deep.include({ id: 'b', key: 'b', revision: 1, created_at: 't2' });
    expect([...store.notes.keys()]).to.deep.equal(['b']);
  });

  it('reads what changed outside Terraform, and a gone object as null', async () => {
    const created = await memo.create('memo_note', note('a', 'one'));
    store.update({ key: 'a', text: 'edited', priority: 2, color: null, links: [] });
    const read = await memo.read('memo_note', created);
    expect(read).to.deep.include({ text: 'edited', priority: 2, revision: 2 });
    const plan = await memo.plan('memo_note', { prior: read, config: note('a', 'one') });
    expect([plan.action, plan.changes]).to.deep.equal(['update', ['text', 'priority', 'revision']]);
    store.notes.delete('a');
    expect(await memo.read('memo_note', created)).to.equal(null);
  });

  it('imports by id and by identity, each read once; a missing object is an error', async () => {
    const created = await memo.create('memo_note', note('a', 'one', { link: [{ url: 'u', weight: 2 }] }));
    const byId = await memo.importState('memo_note', 'a');
    expect(byId).to.deep.equal(created);
    expect(memo.identityOf(byId)).to.deep.equal({ key: 'a' });
    expect(await memo.importState('memo_note', { identity: { key: 'a' } })).to.deep.equal(created);
    // The imported state plans no change from the configuration that made it.
    const plan = await memo.plan('memo_note', {
      prior: byId,
      config: note('a', 'one', { link: [{ url: 'u', weight: 2 }] }),
    });
    expect(plan.action).to.equal('no-op');

    const missing = await rejection(memo.importState('memo_note', 'zz'));
    expect(missing.operation).to.equal('import of memo_note "zz"');
    expect(missing.errors[0]!.summary).to.equal('Cannot import non-existent remote object');
    const gone = await rejection(memo.importState('memo_note', { identity: { key: 'zz' } }));
    expect(gone.errors.map((d) => d.summary)).to.deep.equal(['Cannot import non-existent remote object']);
    expect(gone.errors[0]!.detail).to.include('the given identity');
    const incomplete = await rejection(memo.importState('memo_note', { identity: { key: null } }));
    expect(incomplete.errors[0]!.summary).to.equal('Incomplete identity');
  });

  it('destroys', async () => {
    const created = await memo.create('memo_note', note('a', 'one'));
    const plan = await memo.plan('memo_note', { prior: created, config: null });
    expect([plan.action, plan.planned]).to.deep.equal(['delete', null]);
    await memo.destroy('memo_note', created);
    expect(store.notes.size).to.equal(0);
  });

  it('reads a data source; its failure is an error', async () => {
    await memo.create('memo_note', note('a', 'one'));
    expect(await memo.readDataSource('memo_note', { key: 'a' })).to.deep.equal({ key: 'a', text: 'one', revision: 1 });
    const err = await rejection(memo.readDataSource('memo_note', { key: 'b' }));
    expect(err.errors[0]!.detail).to.include('no note b');
  });

  it('calls a function; an argument error names the argument', async () => {
    expect(memo.callFunction('slug', ['team', 'db'])).to.equal('team-db');
    const err = await rejection(() => memo.callFunction('slug', ['team', '']));
    expect(err.diagnostics).to.deep.equal([
      {
        severity: 'error',
        summary: 'Invalid function argument',
        detail: 'Invalid value for "parts" parameter: a part may not be empty.',
        argument: 1,
      },
    ]);
    expect(err.message).to.include('(argument 1)');
    const wrong = await rejection(() => memo.callFunction('slug', ['team', 7]));
    expect(wrong.diagnostics[0]!.summary).to.equal('Incorrect value type');
    expect((await rejection(() => memo.callFunction('nope', []))).diagnostics[0]!.detail).to.include('no function');
  });

  it('validates: errors at their attribute paths, returned; a plan or create with them rejects', async () => {
    const config = note('a', 'one', { link: [{ url: 'u', weight: 11 }] });
    const found = memo.validate('memo_note', config);
    expect(found.map((d) => [d.severity, d.path])).to.deep.equal([['error', 'link[0].weight']]);
    expect(found[0]!.detail).to.include('from 1 to 10');
    const err = await rejection(memo.create('memo_note', config));
    expect(err.operation).to.equal('create of memo_note');
    expect(err.errors.map((d) => d.path)).to.deep.equal(['link[0].weight']);
    expect(err.message).to.include('(at link[0].weight)');
    expect(store.notes.size).to.equal(0);
    expect(memo.validate('memo_note', note('A', 'one'))[0]!.path).to.equal('key');
    expect(memo.validate('memo_nope', {})[0]!.severity).to.equal('error');
  });

  it('refuses a model that does not fit the schema, at its path', async () => {
    const typo = await rejection(memo.create('memo_note', { key: 'a', txt: 'one' }));
    expect(typo.errors.map((d) => [d.summary, d.path])).to.deep.equal([['Unsupported argument', 'txt']]);
    const type = await rejection(memo.create('memo_note', note('a', 'one', { priority: '2' })));
    expect(type.errors.map((d) => [d.summary, d.path])).to.deep.equal([['Incorrect value type', 'priority']]);
    expect(memo.validate('memo_note', { key: 'a', text: 'one', link: [{ url: 'u', wieght: 1 }] })).to.deep.equal([
      {
        severity: 'error',
        summary: 'Unsupported argument',
        detail: 'An argument named "wieght" is not expected here; there are url, weight.',
        path: 'link[0].wieght',
      },
    ]);
    await rejection(memo.plan('memo_nope', { config: {} }));
  });

  it('keeps warnings with the result: a plan’s diagnostics, and the warnings of the last call', async () => {
    const plan = await memo.plan('memo_note', { config: note('a', 'one', { color: 'red' }) });
    expect(plan.diagnostics.map((d) => [d.severity, d.path])).to.deep.equal([['warning', 'color']]);
    await memo.create('memo_note', note('a', 'one', { color: 'red' }));
    expect(memo.warnings.map((d) => d.summary)).to.deep.equal(['Argument "color" is deprecated']);
    await memo.read('memo_note', (await memo.importState('memo_note', 'a'))!);
    expect(memo.warnings).to.deep.equal([]);
  });

  it('plans with unknown values in the configuration', async () => {
    const plan = await memo.plan('memo_note', { config: { key: 'a', text: UNKNOWN } });
    expect(plan.planned).to.deep.include({ text: UNKNOWN, id: UNKNOWN, priority: 1 });
  });

  it('rejects a failed apply with what the state keeps', async () => {
    const full = () => new ApiError('the store is full', { code: 'invalid', operation: 'write note' });
    store.failNext = full();
    const failed = await rejection(memo.create('memo_note', note('a', 'one')));
    expect(failed.errors.map((d) => d.summary)).to.deep.equal(['Cannot create memo_note']);
    expect(failed.errors[0]!.detail).to.include('the store is full');
    expect(failed.state).to.equal(null);
    const created = await memo.create('memo_note', note('a', 'one'));
    store.failNext = full();
    const kept = await rejection(memo.apply('memo_note', { prior: created, config: note('a', 'two') }));
    expect(kept.operation).to.equal('apply of memo_note');
    expect(kept.state).to.deep.equal(created);
  });

  it('upgrades a stored state to the schema', () => {
    const stored = { id: 'a', key: 'a', text: 'one', priority: 1, revision: 1, created_at: 't1', link: [] };
    expect(memo.upgradeState('memo_note', 0, stored)).to.deep.equal({ ...stored, color: null });
    expect(() => memo.upgradeState('memo_note', 1, stored)).to.throw(HarnessError, 'State is newer than the provider');
  });
});
