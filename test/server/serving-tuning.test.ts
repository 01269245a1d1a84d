/**
 * The executable tunes V8 for serving from ConfigureProvider on, except during the first call that
 * may reach the platform (src/server/v8-tuning.ts): that call loads the API client and the node
 * modules it uses, whose code caches V8 takes only under its default flags. An apply process plans
 * each resource before applying it, so a plan must not count as that call.
 */
import { expect } from 'chai';
import secProvider from '../../src/resources/sec/index.js';
import { ProviderEngine } from '../../src/engine/provider-engine.js';
import { providerService } from '../../src/server/provider-service.js';
import { impliedType } from '../../src/schema/block.js';
import { encodeMsgpack } from '../../src/schema/msgpack.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { silentLogger } from '../fuzz/answers.js';

describe('server/provider-service: the serving phases', () => {
  let emulator: SecEmulator;
  afterEach(() => emulator.close());

  it('are configured, then the first call that may reach the platform begins and answers, once', async () => {
    emulator = await startSecEmulator();
    const env = { ...secProviderEnv(emulator), HOME: '/nonexistent' };
    const engine = new ProviderEngine(secProvider, silentLogger, env);
    /** Each phase with the number of requests the emulator had received by then. */
    const phases: string[] = [];
    const record = (phase: string) => () => phases.push(`${phase} ${emulator.requests.length}`);
    const handlers = providerService(engine, silentLogger, {
      phases: {
        configured: record('configured'),
        firstPlatformCallBegins: record('begins'),
        firstPlatformCallAnswered: record('answered'),
      },
    });
    const call = async (rpc: string, request: Record<string, unknown>) => {
      const res = await handlers[rpc]!(request, { signal: new AbortController().signal });
      expect(res.diagnostics, rpc).to.deep.equal([]);
      return res;
    };
    const type = 'sec_alert_channel_email';
    const schema = engine.resourceSchema(type)!;
    const dynamic = (value: Parameters<typeof encodeMsgpack>[1]) => ({
      msgpack: encodeMsgpack(impliedType(schema.block), value),
    });
    const config = dynamic(configValue(schema.block, { name: 'ops', recipients: ['ops@example.com'] }));
    const providerConfig = {
      msgpack: encodeMsgpack(
        impliedType(engine.providerSchema().block),
        configValue(engine.providerSchema().block, {}),
      ),
    };

    await call('ValidateProviderConfig', { config: providerConfig });
    await call('ConfigureProvider', { terraform_version: '1.11.4', config: providerConfig });
    await call('ValidateResourceConfig', { type_name: type, config });
    const planned = await call('PlanResourceChange', {
      type_name: type,
      prior_state: dynamic(null),
      proposed_new_state: config,
      config,
    });
    expect(emulator.requests).to.deep.equal([]);
    expect(phases, 'before any call to the platform').to.deep.equal(['configured 0']);

    const applied = await call('ApplyResourceChange', {
      type_name: type,
      prior_state: dynamic(null),
      planned_state: planned.planned_state,
      config,
    });
    expect(emulator.requests.length, 'the apply created the channel').to.be.at.least(1);
    expect(phases).to.deep.equal(['configured 0', 'begins 0', `answered ${emulator.requests.length}`]);

    await call('ReadResource', { type_name: type, current_state: applied.new_state });
    expect(phases, 'never again').to.have.length(3);
  });
});
