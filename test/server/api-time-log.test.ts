/**
 * Every RPC's trace line says how much of its time went to the management API (`api_ms`), so the
 * provider's own share can be told apart (the `scale` benchmark reads these lines).
 */
import { expect } from 'chai';
import secProvider from '../../src/resources/sec/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { providerService } from '../../packages/framework/src/server/provider-service.js';
import { Logger } from '../../packages/framework/src/server/log.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';

describe('server/provider-service: API time on the RPC trace line', () => {
  let emulator: SecEmulator;
  let lines: Record<string, unknown>[];
  let handlers: ReturnType<typeof providerService>;
  const call = (rpc: string, request: Record<string, unknown>) =>
    handlers[rpc]!(request, { signal: new AbortController().signal });
  const done = (rpc: string) => lines.filter((l) => l['@message'] === 'RPC done' && l.tf_rpc === rpc);

  beforeEach(async () => {
    emulator = await startSecEmulator();
    lines = [];
    const log = new Logger({
      level: 'trace',
      write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    const env = { ...secProviderEnv(emulator), HOME: '/nonexistent' };
    handlers = providerService(new ProviderEngine(secProvider, log, env), log);
  });
  afterEach(() => emulator.close());

  it('is the time spent in API exchanges: zero without any, part of the RPC with some', async () => {
    await call('GetProviderSchema', {});
    const configured = await call('ConfigureProvider', { terraform_version: '1.11.4' });
    expect(configured.diagnostics).to.deep.equal([]);
    emulator.clearRequests();
    const read = await call('ReadDataSource', { type_name: 'sec_user_profile' });
    expect(read.diagnostics).to.deep.equal([]);
    expect(emulator.requests.length, 'the data source read made API calls').to.be.at.least(1);

    const [schema] = done('GetProviderSchema');
    expect(schema).to.include({ api_ms: 0 });
    const [readLine] = done('ReadDataSource');
    expect(readLine!.api_ms).to.be.a('number').above(0);
    expect(readLine!.api_ms as number).to.be.at.most(readLine!.tf_req_duration_ms as number);
  });
});
