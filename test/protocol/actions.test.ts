/**
 * The actions of both providers under what a real platform and a real user do to them, on the real
 * executables, with the requests Terraform 1.14 sends (the recorded fixtures' bytes where they have
 * them, the same messages with other values where not): bad arguments refused at their paths before
 * anything is sent; a backup that fails; a request the platform declines for the moment (gRPC
 * RESOURCE_EXHAUSTED, HTTP 429) sent again; a lost answer whose backup is found, not requested
 * again; StopProvider, the `timeout` bound and the call's deadline ending a run at once; a test alert
 * the destination refuses; a scan the platform refuses. Each asserts the streamed events and the
 * requests the emulator received.
 */
import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchProvider, type LaunchedProvider } from '../../src/tfclient/launch.js';
import {
  decodeMessage,
  encodeMessage,
  rpcTypes,
  SERVICE_NAMES,
  type RpcName,
} from '../../packages/framework/src/server/proto.js';
import { encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { startVdbEmulator, VDB_COLLECTIONS, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { INVENTORY_SCANS, startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { SEC_FIXED, VDB_FIXED, seedSec, seedVdb, type Fixture } from './seeds.js';
import { FIXTURES_DIR } from './record-fixtures.js';

type Msg = Record<string, any>;
const BIN = (name: string) => join(process.cwd(), 'bin', `terraform-provider-${name}`);
const fixture = (name: string): Fixture =>
  JSON.parse(readFileSync(join(FIXTURES_DIR, `${name}.json`), 'utf8')) as Fixture;
const recorded = (f: Fixture, id: string): Buffer => Buffer.from(f.steps.find((s) => s.id === id)!.bytes, 'base64');
const encode = (rpc: RpcName, request: Msg): Buffer =>
  encodeMessage(rpcTypes(SERVICE_NAMES.provider, rpc).request, request);
const decode = (rpc: RpcName, bytes: Buffer): Msg =>
  decodeMessage(rpcTypes(SERVICE_NAMES.provider, rpc).response, bytes);
const CAPABILITIES = { write_only_attributes_allowed: true };
const BACKUP = 'vdb.cloud.cluster.backup.v1.BackupService';

/** An action's `config` block as Terraform sends it. */
async function actionConfig(provider: 'sec' | 'vdb', type: string, plain: Record<string, unknown>) {
  const def = await loadProviderDef(provider);
  const block = def.actions!.find((a) => a.typeName === type)!.schema.block;
  return { msgpack: encodeMsgpack(impliedType(block), configValue(block, plain)) };
}

/** The apply walk's process: configured as the fixture's requests configure it. */
async function configuredProvider(provider: 'sec' | 'vdb', env: Record<string, string>): Promise<LaunchedProvider> {
  const plugin = await launchProvider(BIN(provider), { env });
  const f = fixture(provider === 'vdb' ? 'vdb-1.14-invoke-backup' : 'sec-1.14-invoke-inventory-scan');
  for (const [rpc, id] of [['ConfigureProvider', 'apply-configure']] as const) {
    const answer = decode(rpc, await plugin.callRaw(rpc, recorded(f, id)));
    expect(answer.diagnostics ?? [], id).to.deep.equal([]);
  }
  return plugin;
}

interface Run {
  progress: string[];
  /** The Completed event's diagnostics (undefined when the stream ended without one). */
  diagnostics?: Msg[];
  /** The gRPC status the stream ended with (0 = OK). */
  status: number;
  /** When the stream ended (performance.now()). */
  endedAt: number;
}

/** Reads an InvokeAction stream to its end; `onProgress` sees each line as it comes. */
function invoke(
  plugin: LaunchedProvider,
  request: Buffer,
  options: { deadlineMs?: number; onProgress?: (line: string) => void } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const run: Run = { progress: [], status: 0, endedAt: 0 };
    const stream = plugin.serverStreamRaw('InvokeAction', request, { deadlineMs: options.deadlineMs });
    stream.on('data', (chunk: Buffer) => {
      const event = decode('InvokeAction', chunk);
      if (event.progress) {
        run.progress.push(String(event.progress.message));
        options.onProgress?.(String(event.progress.message));
      } else run.diagnostics = event.completed.diagnostics ?? [];
    });
    stream.on('error', (err: grpc.ServiceError) => {
      run.status = err.code;
    });
    stream.on('close', () => {
      run.endedAt = performance.now();
      resolve(run);
    });
  });
}

const errors = (diags: Msg[] | undefined) => (diags ?? []).filter((d) => d.severity === 1);
const pathOf = (d: Msg) => (d.attribute?.steps ?? []).map((s: Msg) => s.attribute_name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('actions on the real executables: bad input, faults, stops and deadlines', function () {
  this.timeout(120_000);

  describe('vdb_cluster_backup', () => {
    let emulator: VdbEmulator;
    let plugin: LaunchedProvider;
    let from = 0;
    const calls = () => emulator.requests.slice(from).map((r) => `${r.service}/${r.method}`);
    const count = (method: string) => calls().filter((c) => c === `${BACKUP}/${method}`).length;
    const backups = () =>
      emulator
        .list<{ id: string; clusterId: string; status: string }>(VDB_COLLECTIONS.backups)
        .filter((b) => b.clusterId === VDB_FIXED.cluster);
    const request = async (plain: Record<string, unknown>) =>
      encode('InvokeAction', {
        action_type: 'vdb_cluster_backup',
        config: await actionConfig('vdb', 'vdb_cluster_backup', { cluster_id: VDB_FIXED.cluster, ...plain }),
        client_capabilities: CAPABILITIES,
      });

    before(async () => {
      emulator = await startVdbEmulator({ accountId: VDB_FIXED.account, provisioningMs: 20, databaseEndpoints: false });
      await seedVdb(emulator);
      plugin = await configuredProvider('vdb', vdbProviderEnv(emulator));
    });
    after(async () => {
      await plugin?.shutdown();
      await emulator?.close();
    });
    beforeEach(() => {
      emulator.clearFaults();
      emulator.setProvisioningMs(20);
      from = emulator.requests.length;
    });

    it('refuses bad arguments at their paths at validation and plan, and sends nothing', async () => {
      const config = await actionConfig('vdb', 'vdb_cluster_backup', {
        cluster_id: 'search-prod',
        retention_period: '1h',
        timeout: '2 hours',
      });
      const validated = decode(
        'ValidateActionConfig',
        await plugin.callRaw(
          'ValidateActionConfig',
          encode('ValidateActionConfig', { type_name: 'vdb_cluster_backup', config }),
        ),
      );
      expect(errors(validated.diagnostics).map(pathOf)).to.deep.equal([
        ['cluster_id'],
        ['retention_period'],
        ['timeout'],
      ]);
      const planned = decode(
        'PlanAction',
        await plugin.callRaw(
          'PlanAction',
          encode('PlanAction', { action_type: 'vdb_cluster_backup', config, client_capabilities: CAPABILITIES }),
        ),
      );
      expect(errors(planned.diagnostics).map(pathOf)).to.deep.equal([
        ['cluster_id'],
        ['retention_period'],
        ['timeout'],
      ]);
      expect(calls()).to.deep.equal([]);
    });

    it('a backup the platform reports failed ends the run with an error; nothing is requested again', async () => {
      emulator.failNextBackup('BACKUP_STATUS_FAILED');
      const run = await invoke(plugin, recorded(fixture('vdb-1.14-invoke-backup'), 'invoke'));
      const [failure, ...more] = errors(run.diagnostics);
      expect(more).to.deep.equal([]);
      expect(failure!.summary).to.equal('Backup failed');
      const failed = backups().find((b) => b.status === 'BACKUP_STATUS_FAILED')!;
      expect(failure!.detail).to.include(failed.id).and.include('BACKUP_STATUS_FAILED');
      expect(count('CreateBackup')).to.equal(1);
      expect(run.progress.at(-1)).to.match(/BACKUP_STATUS_FAILED/);
    });

    it('a request the platform declines for the moment (RESOURCE_EXHAUSTED) is sent again, once', async () => {
      const before = backups().length;
      emulator.injectFault({ method: 'CreateBackup', code: grpc.status.RESOURCE_EXHAUSTED, message: 'slow down' });
      const run = await invoke(plugin, await request({ retention_period: '72h' }));
      expect(errors(run.diagnostics)).to.deep.equal([]);
      expect(
        emulator.requests
          .slice(from)
          .filter((r) => r.method === 'CreateBackup')
          .map((r) => r.code),
      ).to.deep.equal([grpc.status.RESOURCE_EXHAUSTED, grpc.status.OK]);
      expect(backups().length).to.equal(before + 1);
    });

    it('a lost answer: the backup the request made is found and awaited, never requested again', async () => {
      const before = backups().length;
      emulator.injectFault({ method: 'CreateBackup', ambiguous: true });
      const run = await invoke(plugin, await request({}));
      expect(errors(run.diagnostics)).to.deep.equal([]);
      expect(
        run.progress.some((l) => l.startsWith('The answer to the backup request was lost; the request made backup')),
      ).to.equal(true);
      expect(run.progress.at(-1)).to.match(/succeeded/);
      expect(count('CreateBackup')).to.equal(1);
      expect(count('ListBackups')).to.equal(2);
      expect(backups().length).to.equal(before + 1);
    });

    it('StopProvider ends a run at once, naming the backup that keeps running, and nothing more is sent', async () => {
      emulator.setProvisioningMs(600_000);
      let stoppedAt = 0;
      const run = await invoke(plugin, recorded(fixture('vdb-1.14-invoke-backup'), 'invoke'), {
        onProgress: (line) => {
          if (/BACKUP_STATUS_RUNNING/.test(line) && stoppedAt === 0) {
            stoppedAt = performance.now();
            void plugin.call('StopProvider', {});
          }
        },
      });
      expect(stoppedAt, 'the backup was seen running').to.be.greaterThan(0);
      expect(run.endedAt - stoppedAt, 'ms from the stop to the end of the run').to.be.lessThan(3000);
      const [stopped] = errors(run.diagnostics);
      expect(stopped!.summary).to.equal('Action stopped');
      const running = backups().filter((b) => b.status === 'BACKUP_STATUS_RUNNING');
      expect(running).to.have.length(1);
      expect(stopped!.detail).to.equal(
        'Terraform asked the provider to stop while vdb_cluster_backup ran. It had started backup ' +
          `${run.progress[1]!.match(/backup (\S+ \([0-9a-f-]{36}\))/)![1]} of cluster ${VDB_FIXED.cluster}, which ` +
          'keeps running on the platform and is not requested again.',
      );
      expect(stopped!.detail).to.include(running[0]!.id);
      const sent = calls().length;
      await sleep(1500);
      expect(calls().length, 'nothing sent after the run ended').to.equal(sent);
      expect(count('CreateBackup')).to.equal(1);
      // The provider serves the next run as before.
      emulator.setProvisioningMs(20);
      const next = await invoke(plugin, await request({}));
      expect(errors(next.diagnostics)).to.deep.equal([]);
    });

    it('the wait bound (`timeout`) ends the wait with an error; the backup keeps running', async () => {
      emulator.setProvisioningMs(600_000);
      const started = performance.now();
      const run = await invoke(plugin, await request({ timeout: '2s' }));
      const elapsed = run.endedAt - started;
      // Not before the bound, and long before the 10 minutes the backup takes.
      expect(elapsed).to.be.greaterThan(1900).and.lessThan(600_000);
      const [late] = errors(run.diagnostics);
      expect(late!.summary).to.equal('Backup not finished');
      expect(late!.detail).to.include('was still BACKUP_STATUS_RUNNING after 2s').and.include('not requested again');
      expect(count('CreateBackup')).to.equal(1);
    });

    it("the call's deadline ends the run: the stream ends with DEADLINE_EXCEEDED and nothing more is sent", async () => {
      emulator.setProvisioningMs(600_000);
      const started = performance.now();
      const run = await invoke(plugin, recorded(fixture('vdb-1.14-invoke-backup'), 'invoke'), { deadlineMs: 1500 });
      expect(run.status).to.equal(grpc.status.DEADLINE_EXCEEDED);
      expect(run.endedAt - started).to.be.lessThan(5000);
      const sent = calls().length;
      await sleep(2500);
      expect(calls().length, 'no poll after the deadline').to.equal(sent);
      expect(count('CreateBackup')).to.equal(1);
    });
  });

  describe('sec_alert_channel_test and sec_inventory_scan', () => {
    let emulator: SecEmulator;
    let plugin: LaunchedProvider;
    let from = 0;
    const calls = () =>
      emulator.requests
        .slice(from)
        .filter((r) => !r.path.startsWith('/api/v2/access/tokens'))
        .map((r) => `${r.method} ${r.path}`);
    const request = async (type: string, plain: Record<string, unknown>) =>
      encode('InvokeAction', {
        action_type: type,
        config: await actionConfig('sec', type, plain),
        client_capabilities: CAPABILITIES,
      });

    before(async () => {
      emulator = await startSecEmulator();
      await seedSec(emulator);
      plugin = await configuredProvider('sec', secProviderEnv(emulator));
    });
    after(async () => {
      await plugin?.shutdown();
      await emulator?.close();
    });
    beforeEach(() => {
      emulator.clearFaults();
      from = emulator.requests.length;
    });

    it('refuses bad arguments at their paths at validation, and sends nothing', async () => {
      for (const [type, plain, path] of [
        ['sec_inventory_scan', { cloud: 'AWS' }, 'cloud'],
        ['sec_alert_channel_test', { channel_id: '' }, 'channel_id'],
      ] as const) {
        const config = await actionConfig('sec', type, plain);
        const answer = decode(
          'ValidateActionConfig',
          await plugin.callRaw('ValidateActionConfig', encode('ValidateActionConfig', { type_name: type, config })),
        );
        expect(errors(answer.diagnostics).map(pathOf), type).to.deep.equal([[path]]);
      }
      expect(calls()).to.deep.equal([]);
    });

    it('a test alert the destination refuses ends the run with its reason', async () => {
      emulator.failChannelTest(SEC_FIXED.channelA, 'the destination answered 410 Gone');
      try {
        const run = await invoke(plugin, await request('sec_alert_channel_test', { channel_id: SEC_FIXED.channelA }));
        const [failure] = errors(run.diagnostics);
        expect(failure!.summary).to.equal('Test alert failed');
        expect(failure!.detail).to.include('the destination answered 410 Gone').and.include(SEC_FIXED.channelA);
        expect(calls()).to.deep.equal([`POST /api/v2/AlertChannels/${SEC_FIXED.channelA}/test`]);
      } finally {
        emulator.failChannelTest(SEC_FIXED.channelA);
      }
    });

    it('a channel that does not exist is named at `channel_id`', async () => {
      const run = await invoke(plugin, await request('sec_alert_channel_test', { channel_id: 'ACME_NOPE' }));
      const [missing] = errors(run.diagnostics);
      expect(missing!.summary).to.equal('Alert channel not found');
      expect(pathOf(missing!)).to.deep.equal(['channel_id']);
    });

    it('a scan the platform declines for the moment (HTTP 429) is asked for again after its Retry-After', async () => {
      const before = emulator.ids(INVENTORY_SCANS).length;
      emulator.injectFault({
        method: 'POST',
        path: '/api/v2/Inventory/scan',
        status: 429,
        headers: { 'Retry-After': '1' },
        body: { message: 'slow down' },
      });
      const started = performance.now();
      const run = await invoke(plugin, recorded(fixture('sec-1.14-invoke-inventory-scan'), 'invoke'));
      expect(errors(run.diagnostics)).to.deep.equal([]);
      expect(run.endedAt - started, 'waited for Retry-After').to.be.greaterThan(900);
      expect(calls()).to.deep.equal([
        'POST /api/v2/Inventory/scan?csp=CLOUD_A',
        'POST /api/v2/Inventory/scan?csp=CLOUD_A',
      ]);
      expect(emulator.ids(INVENTORY_SCANS).length).to.equal(before + 1);
    });

    it('a scan the platform refuses fails at `cloud` with its reason, as does a cloud with no account integrated', async () => {
      emulator.refuseInventoryScan('CLOUD_A', 'a scan of CLOUD_A is already running');
      try {
        const refused = await invoke(plugin, recorded(fixture('sec-1.14-invoke-inventory-scan'), 'invoke'));
        const [d] = errors(refused.diagnostics);
        expect(d!.summary).to.equal('Inventory scan refused');
        expect(d!.detail).to.include('a scan of CLOUD_A is already running');
        expect(pathOf(d!)).to.deep.equal(['cloud']);
      } finally {
        emulator.refuseInventoryScan('CLOUD_A');
      }
      const none = await invoke(plugin, await request('sec_inventory_scan', { cloud: 'CLOUD_B' }));
      expect(errors(none.diagnostics)[0]!.detail).to.include('no enabled CLOUD_B configuration integration');
      // Refused requests are not repeated: a 400 is the platform's answer.
      expect(calls()).to.deep.equal([
        'POST /api/v2/Inventory/scan?csp=CLOUD_A',
        'POST /api/v2/Inventory/scan?csp=CLOUD_B',
      ]);
    });
  });
});
