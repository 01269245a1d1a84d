/**
 * rpc: the server's CPU per unary call, the unit the scale benchmark's CPU per resource is made of
 * (an apply makes 6 RPCs per resource: ValidateResourceConfig ×3, PlanResourceChange ×2,
 * ApplyResourceChange, besides ~1.5 API calls). Each server runs as Terraform starts it (AutoMTLS)
 * and its CPU is read from /proc around N calls, one at a time and 10 in flight:
 * - grpc.health.v1 Check on the Node floor server (./floor-server.ts: plain node:http2, no gRPC
 *   library) — what a call costs in node's HTTP/2, TLS and event loop alone;
 * - the same Check on both providers — what our gRPC server adds over node:http2 (from 2026-11-23 it
 *   ran on an HTTP/2 of our own, below that floor; on 2026-11-24 it moved back to node:http2);
 * - ValidateResourceConfig and a create's PlanResourceChange of one resource per provider — what
 *   decoding, our handlers and encoding add.
 *
 * Usage: npm run bench -- rpc [calls] [--beside DIR]   (calls: or BENCH_CALLS; default 3000 per row)
 * --beside DIR adds the rows of another built checkout's providers (DIR/bin/terraform-provider-*).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import { PROJECT_PROVIDERS } from '../../src/providers/project.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { launchProvider, type LaunchedProvider } from '../../src/tfclient/launch.js';
import { REPO_ROOT, bin, cpuMsOf, machine, readFlags, table } from './util.js';

const FLOOR = join(REPO_ROOT, 'dist', 'bundle', 'bench-floor-server.cjs');
const IN_FLIGHT = [1, 10];

/**
 * A resource configuration each provider plans: valid, as a user would write it. A provider with none
 * here gets the health Check row alone.
 */
const SAMPLES: Record<string, { type: string; config: Record<string, unknown> }> = {
  sec: {
    type: 'sec_alert_channel_email',
    config: { name: 'ops', recipients: ['ops@example.com', 'oncall@example.com'] },
  },
  vdb: {
    type: 'vdb_accounts_cluster',
    config: {
      name: 'bench-cluster',
      cloud_provider: 'aws',
      cloud_region: 'us-east-1',
      configuration: [
        { number_of_nodes: 3, node_configuration: [{ package_id: '7c9f1b2e-3d4a-4b5c-8d6e-0f1a2b3c4d5e' }] },
      ],
    },
  },
};

interface Row {
  label: string;
  call: (p: LaunchedProvider) => Promise<unknown>;
}

function rowsFor(provider: string, def: ProviderDef<any, any>, where = ''): Row[] {
  const health: Row = { label: `${provider}${where}: health Check`, call: (p) => p.health() };
  if (!SAMPLES[provider]) return [health];
  const { type, config } = SAMPLES[provider];
  const block = def.resources.find((r) => r.typeName === type)!.schema.block;
  const value = { msgpack: encodeMsgpack(impliedType(block), configValue(block, config)) };
  const none = { msgpack: encodeMsgpack(impliedType(block), null) };
  const checked = (res: any) => {
    const errors = (res.diagnostics as any[]).filter((d) => d.severity === 1);
    if (errors.length > 0) throw new Error(`${type}: ${errors.map((d) => `${d.summary}: ${d.detail}`).join('; ')}`);
    return res;
  };
  return [
    health,
    {
      label: `${provider}${where}: ValidateResourceConfig ${type}`,
      call: async (p) => checked(await p.call('ValidateResourceConfig', { type_name: type, config: value })),
    },
    {
      label: `${provider}${where}: PlanResourceChange (create) ${type}`,
      call: async (p) =>
        checked(
          await p.call('PlanResourceChange', {
            type_name: type,
            prior_state: none,
            proposed_new_state: value,
            config: value,
          }),
        ),
    },
  ];
}

/** Server CPU per call, in microseconds, for `calls` calls with `inFlight` at a time. */
async function measure(p: LaunchedProvider, row: Row, calls: number, inFlight: number): Promise<number> {
  for (let i = 0; i < 200; i++) await row.call(p); // warm: JIT, connection windows
  const before = cpuMsOf(p.pid);
  let left = calls;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (left-- > 0) await row.call(p);
    }),
  );
  return ((cpuMsOf(p.pid) - before) / calls) * 1000;
}

export async function rpcBench(args: string[]): Promise<void> {
  let beside: string | undefined;
  const [given] = readFlags(
    args,
    'rpc [calls] [--beside DIR]',
    {
      '--beside': (value) => {
        beside = value;
      },
    },
    { positionals: 1 },
  );
  const calls = Number(given ?? process.env.BENCH_CALLS ?? 3000);
  if (!Number.isInteger(calls) || calls < 1)
    throw new Error(`calls must be a positive integer, not ${given ?? process.env.BENCH_CALLS}`);
  if (!existsSync(FLOOR)) throw new Error(`${FLOOR} is missing: run npm run build`);
  const env = { NODE_EXTRA_CA_CERTS: undefined, TF_LOG: undefined, TF_LOG_PROVIDER: undefined };
  const servers: [string, string, string[], Row[]][] = [
    [
      'floor server',
      process.execPath,
      [FLOOR],
      [{ label: 'floor server (node:http2): health Check', call: (p) => p.health() }],
    ],
  ];
  const defs = new Map(await Promise.all(PROJECT_PROVIDERS.map(async (p) => [p.name, await p.definition()] as const)));
  for (const [name, def] of defs) servers.push([name, bin(name), [], rowsFor(name, def)]);
  if (beside) {
    for (const [name, def] of defs) {
      const executable = join(beside, 'bin', `terraform-provider-${name}`);
      if (!existsSync(executable)) throw new Error(`${executable} is missing`);
      servers.push([name, executable, [], rowsFor(name, def, ` (${beside})`)]);
    }
  }
  const out: [string, string][] = [];
  let floor: number[] = [];
  for (const [, executable, launchArgs, rows] of servers) {
    const p = await launchProvider(executable, { env, args: launchArgs });
    try {
      for (const row of rows) {
        const perCall: number[] = [];
        for (const inFlight of IN_FLIGHT) perCall.push(await measure(p, row, calls, inFlight));
        if (floor.length === 0) floor = perCall;
        out.push([
          row.label,
          perCall
            .map(
              (us, i) =>
                `${us.toFixed(0).padStart(4)} µs (${IN_FLIGHT[i]} in flight${floor === perCall ? '' : `, floor +${(us - floor[i]!).toFixed(0)}`})`,
            )
            .join('   '),
        ]);
      }
    } finally {
      await p.shutdown();
    }
  }
  table(`rpc — server CPU per call, ${calls} calls per row — ${machine()}`, out);
}
