/**
 * Ephemeral values Terraform opened and never closed (Terraform 1.11 skips Close when a consumer
 * fails or the run is interrupted): the engine closes them as the provider shuts down, naming each in
 * a warning first; what Terraform closed itself is not closed twice; a close that fails or runs out
 * of time leaves a warning that names the value.
 */
import { expect } from 'chai';
import { attr, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { ephemeralResource, provider } from '../../packages/framework/src/engine/contracts/index.js';
import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';

interface Api {
  keys: Set<string>;
  seq: number;
  /** close: 'fail' refuses, 'hang' never answers (until aborted). */
  close: 'ok' | 'fail' | 'hang';
}

const lines: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
const log: Logger = {
  trace() {},
  debug() {},
  info: (message, fields = {}) => lines.push({ level: 'info', message, fields }),
  warn: (message, fields = {}) => lines.push({ level: 'warn', message, fields }),
  error() {},
  child: () => log,
};

const schema = resourceSchema(
  {
    name: attr.string({ required: true, description: 'name' }),
    key: attr.string({ computed: true, sensitive: true, description: 'the secret' }),
  },
  { description: 'a key for the run' },
);

const runKey = ephemeralResource<typeof schema.fields, Api>({
  typeName: 'fake_key',
  schema,
  async open(config, ctx) {
    const id = `k-${++ctx.client.seq}`;
    ctx.client.keys.add(id);
    return { result: { name: config.name, key: `secret-${id}` }, private: { id, expires_at: '2030-01-01T00:00:00Z' } };
  },
  describeOpened: (priv) => `key ${String(priv.id)}, expiring at ${String(priv.expires_at)}`,
  async close(priv, ctx) {
    if (ctx.client.close === 'fail') throw new Error('the platform refused the delete');
    if (ctx.client.close === 'hang') {
      await new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    }
    ctx.client.keys.delete(String(priv.id));
  },
});

async function engineWith(api: Api): Promise<ProviderEngine<Api>> {
  const engine = new ProviderEngine(
    provider({
      name: 'fake',
      version: '0',
      schema: resourceSchema({}, { description: '' }),
      configure: async () => api,
      resources: [],
      dataSources: [],
      ephemeralResources: [runKey],
    }),
    log,
    {},
  );
  await engine.configureProvider('1.11.4', {});
  return engine;
}

const warnings = () => lines.filter((l) => l.level === 'warn');

describe('engine: ephemeral values Terraform never closed', () => {
  let api: Api;
  beforeEach(() => {
    api = { keys: new Set(), seq: 0, close: 'ok' };
    lines.length = 0;
  });

  it('are closed at shutdown, each named (never its secret) in a warning first', async () => {
    const engine = await engineWith(api);
    const first = await engine.openEphemeralResource('fake_key', { name: 'a', key: null });
    await engine.openEphemeralResource('fake_key', { name: 'b', key: null });
    expect([...api.keys]).to.deep.equal(['k-1', 'k-2']);
    // Terraform closes the first one itself.
    await engine.closeEphemeralResource('fake_key', first.private);
    await engine.closeLeftoverEphemerals(1_000);
    expect([...api.keys]).to.deep.equal([]);
    expect(warnings().map((w) => w.fields.opened)).to.deep.equal(['key k-2, expiring at 2030-01-01T00:00:00Z']);
    expect(JSON.stringify(lines)).to.not.include('secret-');
    // Nothing is closed twice.
    await engine.closeLeftoverEphemerals(1_000);
    expect(warnings()).to.have.length(1);
  });

  it('a close that fails leaves a warning that names the value and its expiry', async () => {
    const engine = await engineWith(api);
    await engine.openEphemeralResource('fake_key', { name: 'a', key: null });
    api.close = 'fail';
    await engine.closeLeftoverEphemerals(1_000);
    expect([...api.keys]).to.deep.equal(['k-1']);
    expect(warnings().map((w) => w.message)).to.deep.equal([
      'Terraform did not close an ephemeral value this provider opened; closing it as the provider shuts down',
      'could not close the ephemeral value Terraform left open',
    ]);
    expect(warnings()[1]!.fields).to.deep.include({ opened: 'key k-1, expiring at 2030-01-01T00:00:00Z' });
    expect(String(warnings()[1]!.fields.error)).to.include('the platform refused the delete');
  });

  it('a close that takes too long is given up within the budget, with the warning', async () => {
    const engine = await engineWith(api);
    await engine.openEphemeralResource('fake_key', { name: 'a', key: null });
    api.close = 'hang';
    // The close never ends: reaching the next line is the budget kept.
    await engine.closeLeftoverEphemerals(100);
    expect(warnings().map((w) => w.message)).to.include('could not close the ephemeral value Terraform left open');
  });

  it('still closes after Terraform asked the provider to stop', async () => {
    const engine = await engineWith(api);
    await engine.openEphemeralResource('fake_key', { name: 'a', key: null });
    engine.stop();
    await engine.closeLeftoverEphemerals(1_000);
    expect([...api.keys]).to.deep.equal([]);
  });
});
