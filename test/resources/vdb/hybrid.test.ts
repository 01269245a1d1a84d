/**
 * vdb_accounts_hybrid_cloud_environment through the provider executable against the in-process
 * emulator, with the `bootstrap_commands_version` semantics of
 * docs/api/vdb.md, "The bootstrap commands version".
 */
import { expect } from 'chai';
import { VDB_COLLECTIONS, type BootstrapCredentials } from '../../../src/emulators/vdb/index.js';
import type { HybridEnvironment } from '../../../src/clients/vdb/api.js';
import { Unknown, type ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { startHarness, type Harness } from './harness.js';
import { MAX_DEPTH } from '../../../src/resources/vdb/operator-settings.js';

const TYPE = 'vdb_accounts_hybrid_cloud_environment';

describe('vdb_accounts_hybrid_cloud_environment', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness({ provisioningMs: 100 });
  });
  after(async () => h?.close());

  const stored = (id: string) => h.emulator.get<HybridEnvironment>(VDB_COLLECTIONS.hybridEnvironments, id)!;
  const credentials = (id: string) => h.emulator.get<BootstrapCredentials>(VDB_COLLECTIONS.bootstrapCredentials, id);
  const env = (configuration: Record<string, unknown> = {}, over: Record<string, unknown> = {}) => ({
    name: 'tf-hybrid',
    configuration: [{ namespace: 'vdb-tf', ...configuration }],
    ...over,
  });

  it('generates bootstrap commands on create, rotates them when the knob changes, clears them at 0; update, import, drift, destroy', async () => {
    const settings = 'operator:\n  replicas: 2 # two for HA\n  features: [backups, "metrics"]\n';
    let plain = env({
      log_level: 'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_INFO',
      advanced_operator_settings: settings,
      no_proxy_configs: ['localhost', '.svc'],
    });
    let state = await h.converge(TYPE, null, plain);
    const id = state.id as string;
    expect(state).to.deep.include({
      bootstrap_commands_version: 1,
      bootstrap_commands_generated: true,
      account_id: h.emulator.accountId,
    });
    const first = state.bootstrap_commands as string[];
    expect(first.length).to.be.greaterThan(1);
    expect(first.join('\n')).to.include(credentials(id)!.accessKey);
    expect(credentials(id)!.generation).to.equal(1);
    expect(stored(id).configuration).to.deep.include({
      namespace: 'vdb-tf',
      advancedOperatorSettings: { operator: { replicas: 2, features: ['backups', 'metrics'] } },
    });
    expect(h.tf.resourceSchema(TYPE).block.attributes.bootstrap_commands!.sensitive).to.equal(true);
    // The configured YAML stays as written; the same data written another way is no change.
    expect((state.configuration as ObjectValue[])[0]!.advanced_operator_settings).to.equal(settings);
    expect(
      await h.isNoOp(
        TYPE,
        state,
        env({
          ...(plain.configuration[0] as object),
          advanced_operator_settings: '{operator: {features: [backups, metrics], replicas: 2}}',
        }),
      ),
    ).to.equal(true);

    // Rename and reconfigure in place: the commands stay, nothing is regenerated.
    plain = env(
      {
        log_level: 'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_DEBUG',
        http_proxy_url: 'http://proxy.internal:3128',
      },
      { name: 'tf-hybrid-2' },
    );
    expect((await h.plan(TYPE, state, plain)).requiresReplace).to.deep.equal([]);
    state = await h.converge(TYPE, state, plain);
    expect(state.bootstrap_commands).to.deep.equal(first);
    expect(credentials(id)!.generation).to.equal(1);
    expect(stored(id)).to.deep.include({ name: 'tf-hybrid-2' });
    expect(stored(id).configuration).to.deep.include({
      httpProxyUrl: 'http://proxy.internal:3128',
      logLevel: 'HYBRID_CLOUD_ENVIRONMENT_CONFIGURATION_LOG_LEVEL_DEBUG',
    });
    expect(stored(id).configuration!.advancedOperatorSettings).to.equal(undefined);

    // Raising the knob rotates: the plan does not know the new commands, the apply has them.
    const rotate = { ...plain, bootstrap_commands_version: 2 };
    const planned = (await h.plan(TYPE, state, rotate)).planned!;
    expect(planned.bootstrap_commands).to.be.instanceOf(Unknown);
    state = await h.converge(TYPE, state, rotate);
    expect(credentials(id)!.generation).to.equal(2);
    expect(state.bootstrap_commands).to.not.deep.equal(first);
    expect((state.bootstrap_commands as string[]).join('\n')).to.include(credentials(id)!.accessKey);

    // 0 forgets the commands (nothing is revoked on the platform).
    const idle = { ...plain, bootstrap_commands_version: 0 };
    state = await h.converge(TYPE, state, idle);
    expect(state).to.deep.include({
      bootstrap_commands_version: 0,
      bootstrap_commands: [],
      bootstrap_commands_generated: true,
    });
    expect(credentials(id)!.generation).to.equal(2);

    // Import: reads never generate; knob 0, no commands, and no change to plan.
    const imported = await h.tf.importState(TYPE, id);
    expect(imported).to.deep.include({
      id,
      name: 'tf-hybrid-2',
      bootstrap_commands_version: 0,
      bootstrap_commands: [],
    });
    expect(await h.isNoOp(TYPE, imported, idle)).to.equal(true);
    expect(credentials(id)!.generation).to.equal(2);

    // The namespace cannot change in place.
    expect(
      (
        await h.plan(
          TYPE,
          state,
          env({ namespace: 'vdb-other' }, { name: 'tf-hybrid-2', bootstrap_commands_version: 0 }),
        )
      ).requiresReplace,
    ).to.deep.include([{ attr: 'configuration' }, { index: 0 }, { attr: 'namespace' }]);

    h.emulator.put(VDB_COLLECTIONS.hybridEnvironments, id, { ...stored(id), name: 'renamed-elsewhere' });
    const drifted = (await h.tf.read(TYPE, state)).state!;
    expect(drifted.name).to.equal('renamed-elsewhere');
    expect(await h.isNoOp(TYPE, drifted, idle)).to.equal(false);

    await h.destroy(TYPE, drifted);
    expect(h.emulator.get(VDB_COLLECTIONS.hybridEnvironments, id)).to.equal(undefined);
    expect((await h.tf.read(TYPE, drifted)).state).to.equal(null);
  });

  it('-1 and an explicit 0 at create generate nothing; a positive knob later does', async () => {
    const never = await h.converge(TYPE, null, env({}, { name: 'tf-never', bootstrap_commands_version: -1 }));
    expect(never).to.deep.include({
      bootstrap_commands_version: -1,
      bootstrap_commands: [],
      bootstrap_commands_generated: false,
    });
    expect(credentials(never.id as string)).to.equal(undefined);

    let idle = await h.converge(TYPE, null, env({}, { name: 'tf-idle', bootstrap_commands_version: 0 }));
    expect(idle).to.deep.include({
      bootstrap_commands_version: 0,
      bootstrap_commands: [],
      bootstrap_commands_generated: false,
    });
    idle = await h.converge(TYPE, idle, env({}, { name: 'tf-idle', bootstrap_commands_version: 5 }));
    expect(idle.bootstrap_commands_generated).to.equal(true);
    expect((idle.bootstrap_commands as string[]).length).to.be.greaterThan(0);
    expect(credentials(idle.id as string)!.generation).to.equal(1);
    await h.destroy(TYPE, never);
    await h.destroy(TYPE, idle);
  });

  it('a refused generation is a warning: the environment is created, the commands stay empty', async () => {
    h.emulator.failBootstrap('failed_precondition');
    const before = h.tf.received.length;
    const state = await h.converge(TYPE, null, env({}, { name: 'tf-refused' }));
    const warnings = h.tf.received.slice(before).filter((d) => d.severity === 'warning');
    expect(warnings.map((d) => d.summary)).to.include('Bootstrap commands not available');
    expect(state).to.deep.include({
      bootstrap_commands_version: 1,
      bootstrap_commands: [],
      bootstrap_commands_generated: false,
    });
    expect(h.emulator.get(VDB_COLLECTIONS.hybridEnvironments, state.id as string)).to.not.equal(undefined);
    // Changing the knob retries.
    const retried = await h.converge(TYPE, state, env({}, { name: 'tf-refused', bootstrap_commands_version: 2 }));
    expect((retried.bootstrap_commands as string[]).length).to.be.greaterThan(0);
    await h.destroy(TYPE, retried);
  });

  // The platform restamps configuration.last_modified_at on every update, a rename too.
  it('a rename leaves nothing for the next refresh to find changed outside Terraform', async () => {
    // Knob 0: no commands, so the environment's status does not move on its own meanwhile.
    const created = await h.converge(TYPE, null, env({}, { name: 'tf-rename', bootstrap_commands_version: 0 }));
    const before = (created.configuration as ObjectValue[])[0]!.last_modified_at;
    h.emulator.clock.advance(60_000);
    const plan = await h.plan(TYPE, created, env({}, { name: 'tf-rename-2', bootstrap_commands_version: 0 }));
    expect((plan.planned!.configuration as ObjectValue[])[0]!.last_modified_at, 'planned').to.be.instanceOf(Unknown);
    const renamed = await h.converge(TYPE, created, env({}, { name: 'tf-rename-2', bootstrap_commands_version: 0 }));
    const id = renamed.id as string;
    expect(stored(id).configuration!.lastModifiedAt, 'the platform moved it').to.not.equal(before);
    // Terraform's refresh compares what it reads with the state: "Objects have changed outside of Terraform" otherwise.
    expect((await h.tf.read(TYPE, renamed)).state).to.deep.equal(renamed);
    await h.destroy(TYPE, renamed);
  });

  it('keeps every key of the settings, __proto__ too, through the client, the platform and back: create, read, import, re-plan, drift', async () => {
    const settings = [
      '__proto__:',
      '  polluted: true',
      'constructor: 1',
      '"": empty key',
      'nested:',
      '  __proto__: [a, {__proto__: null}]',
      '',
    ].join('\n');
    const config = env({ advanced_operator_settings: settings }, { name: 'tf-proto', bootstrap_commands_version: 0 });
    const state = await h.converge(TYPE, null, config);
    const id = state.id as string;
    // What the platform holds: every key an entry, none a prototype.
    const held = JSON.parse(JSON.stringify(stored(id).configuration!.advancedOperatorSettings)) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(stored(id).configuration!.advancedOperatorSettings)).to.equal(
      '{"__proto__":{"polluted":true},"constructor":1,"":"empty key","nested":{"__proto__":["a",{"__proto__":null}]}}',
    );
    expect(Object.keys(held)).to.deep.equal(['__proto__', 'constructor', '', 'nested']);
    expect((state.configuration as ObjectValue[])[0]!.advanced_operator_settings).to.equal(settings);
    expect((await h.tf.read(TYPE, state)).state).to.deep.equal(state);

    // An import prints the platform's value: the same data, so no change to plan.
    const imported = await h.tf.importState(TYPE, id);
    const printed = (imported.configuration as ObjectValue[])[0]!.advanced_operator_settings as string;
    expect(printed).to.equal(
      [
        '"": empty key',
        '__proto__:',
        '  polluted: true',
        'constructor: 1',
        'nested:',
        '  __proto__:',
        '    - a',
        '    - __proto__: null',
        '',
      ].join('\n'),
    );
    expect(await h.isNoOp(TYPE, imported, config)).to.equal(true);

    // A change of meaning under __proto__ is a change, made elsewhere or in the configuration.
    const changed = settings.replace('polluted: true', 'polluted: false');
    expect(
      await h.isNoOp(
        TYPE,
        state,
        env({ advanced_operator_settings: changed }, { name: 'tf-proto', bootstrap_commands_version: 0 }),
      ),
    ).to.equal(false);
    const elsewhere = stored(id);
    h.emulator.put(VDB_COLLECTIONS.hybridEnvironments, id, {
      ...elsewhere,
      configuration: {
        ...elsewhere.configuration!,
        advancedOperatorSettings: JSON.parse('{"__proto__":{"polluted":false}}'),
      },
    });
    const drifted = (await h.tf.read(TYPE, state)).state!;
    expect((drifted.configuration as ObjectValue[])[0]!.advanced_operator_settings).to.equal(
      '__proto__:\n  polluted: false\n',
    );
    expect(await h.isNoOp(TYPE, drifted, config)).to.equal(false);
    await h.destroy(TYPE, state);
  });

  it('settings nested as deep as the provider allows reach the platform and read back; deeper is refused at validation', async () => {
    const nested = (levels: number) => `a: ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}\n`;
    const deepest = nested(MAX_DEPTH);
    const config = env({ advanced_operator_settings: deepest }, { name: 'tf-deep', bootstrap_commands_version: 0 });
    const state = await h.converge(TYPE, null, config);
    const imported = await h.tf.importState(TYPE, state.id as string);
    expect(await h.isNoOp(TYPE, imported, config)).to.equal(true);
    await h.destroy(TYPE, state);
    const refused = await h.failure(
      h.tf.validateResource(TYPE, h.config(TYPE, env({ advanced_operator_settings: nested(MAX_DEPTH + 1) }))),
    );
    expect(refused.diagnostics.map((d) => [d.path, d.detail])).to.deep.equal([
      [
        'configuration[0].advanced_operator_settings',
        `The value must be valid YAML (line 1, column ${3 + MAX_DEPTH}: mappings and lists nest deeper than ${MAX_DEPTH} ` +
          'levels).',
      ],
    ]);
  });

  it('a storage class parameter named __proto__ is read into the state as a map entry', async () => {
    const created = await h.converge(TYPE, null, env({}, { name: 'tf-parameters', bootstrap_commands_version: 1 }));
    const id = created.id as string;
    h.emulator.clock.advance(60_000);
    await h.tf.read(TYPE, created);
    const ready = stored(id);
    const storageClass = ready.status!.storageClasses[0]!;
    h.emulator.put(VDB_COLLECTIONS.hybridEnvironments, id, {
      ...ready,
      status: {
        ...ready.status!,
        storageClasses: [
          {
            ...storageClass,
            parameters: [
              { key: '__proto__', value: 'x' },
              { key: 'type', value: 'ssd' },
            ],
          },
        ],
      },
    });
    const read = (await h.tf.read(TYPE, created)).state!;
    const parameters = ((read.status as ObjectValue[])[0]!.storage_classes as ObjectValue[])[0]!
      .parameters as ObjectValue;
    expect(Object.keys(parameters)).to.deep.equal(['__proto__', 'type']);
    expect(Object.getOwnPropertyDescriptor(parameters, '__proto__')?.value).to.equal('x');
    expect(Object.getPrototypeOf(parameters)).to.equal(Object.prototype);
    await h.destroy(TYPE, read);
  });

  it('rejects bad YAML, URLs and names at plan time with paths', async () => {
    const err = await h.failure(
      h.tf.validateResource(
        TYPE,
        h.config(
          TYPE,
          env(
            { advanced_operator_settings: 'a: [1, 2', http_proxy_url: 'proxy:3128', namespace: 'Bad_NS' },
            { name: 'no spaces', bootstrap_commands_version: -2 },
          ),
        ),
      ),
    );
    const byPath = Object.fromEntries(err.diagnostics.map((d) => [d.path, d.detail]));
    expect(byPath['configuration[0].advanced_operator_settings']).to.match(/valid YAML \(line 1/);
    expect(byPath['configuration[0].http_proxy_url']).to.match(/URL/);
    expect(byPath['configuration[0].namespace']).to.match(/namespace/);
    expect(byPath.name).to.match(/letters, digits/);
    expect(byPath.bootstrap_commands_version).to.match(/from -1 to 2147483647/);
    const list = await h.failure(
      h.tf.validateResource(TYPE, h.config(TYPE, env({ advanced_operator_settings: '- a\n- b' }))),
    );
    expect(list.diagnostics[0]!.detail).to.match(/YAML mapping/);
  });
});
