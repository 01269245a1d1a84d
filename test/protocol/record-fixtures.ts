/**
 * Records the protocol fixtures (fixtures/*.json) from real Terraform: for each scenario of
 * scenarios.ts, emulators seeded as seeds.ts says, the workspace set up with its unrecorded commands,
 * then its command run with every provider process Terraform starts being the recording provider
 * (recorder/recording-provider.ts), which passes each call to the real executable and writes it down.
 * Each recorded request becomes a step: its bytes, a readable form, the process it came in, which
 * earlier answer it copies bytes from (`sameAs`, found by comparing bytes), and the expectations the
 * scenario selects for it. replay.test.ts replays them.
 *
 * A scenario names its client (a Terraform release of the wheels, the `terraform` on PATH, OpenTofu),
 * and may record a command that fails as it should (`fails`: what its output must say).
 *
 * Usage, after `npm run build` and `npm run clients`: npm run record-fixtures [-- <scenario name>…]
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { typeToJSON, type CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { createHash } from 'node:crypto';
import { identityType } from '../../packages/framework/src/engine/resources/identity.js';
import { decodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { Decimal, DynamicValue, Unknown, type Value } from '../../packages/framework/src/schema/value.js';
import { decodeMessage, rpcTypes, SERVICE_NAMES } from '../../packages/framework/src/server/proto.js';
import type { RpcName } from '../../packages/framework/src/server/rpcs.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import {
  devOverridesConfig,
  providerInstallationConfig,
  secProviderEnv,
  terraformEnv,
  vdbProviderEnv,
} from '../../src/tfclient/terraform-cli.js';
import { BIN_DIR, CLIENTS_DIR, REPO_ROOT, runCommand, wheelTerraformPath } from '../acceptance/terraform.js';
import type { RecordedCall } from './recorder/recording-provider.js';
import { SCENARIOS, type RecordingClient, type Scenario, type StepExpectation } from './scenarios.js';
import { seedSec, seedVdb, VDB_FIXED, type Fixture, type FixtureStep, type Json } from './seeds.js';

export const FIXTURES_DIR = join(REPO_ROOT, 'test', 'protocol', 'fixtures');
export const fixtureText = (fixture: unknown): string => `${JSON.stringify(fixture, null, 2)}\n`;

const RECORDER = fileURLToPath(new URL('./recorder/recording-provider.js', import.meta.url));
type Msg = Record<string, any>;

/** One provider process's calls, as the recorder wrote them. */
interface RecordedProcess {
  readonly calls: RecordedCall[];
}

/** Emulators seeded for a scenario, and the provider's settings for them. */
async function seeded(provider: 'sec' | 'vdb'): Promise<{ env: Record<string, string>; close: () => Promise<void> }> {
  if (provider === 'sec') {
    const e = await startSecEmulator();
    await seedSec(e);
    return { env: secProviderEnv(e), close: () => e.close() };
  }
  const e = await startVdbEmulator({ accountId: VDB_FIXED.account, provisioningMs: 20, databaseEndpoints: false });
  await seedVdb(e);
  return { env: vdbProviderEnv(e), close: () => e.close() };
}

const filesOf = (files: Scenario['files']): Record<string, string> =>
  typeof files === 'string' ? { 'main.tf': files } : { ...files };

function terraformFor(release: RecordingClient): string {
  if (release === 'path') return 'terraform';
  if (release === 'tofu') {
    const tofu = join(CLIENTS_DIR, 'tofu');
    if (!existsSync(tofu)) throw new Error(`OpenTofu is not built in ${CLIENTS_DIR}: run \`npm run clients\``);
    return tofu;
  }
  const path = wheelTerraformPath(release);
  if (path === null) throw new Error(`Terraform ${release} is not provided: run \`npm run clients\``);
  return path;
}

/** Runs a scenario under real Terraform and returns the provider processes of its recorded command. */
async function record(scenario: Scenario): Promise<RecordedProcess[]> {
  const dir = mkdtempSync(join(tmpdir(), `keel-record-${scenario.name}-`));
  const emulator = await seeded(scenario.provider);
  try {
    const config = join(dir, 'config');
    mkdirSync(config);
    for (const [name, text] of Object.entries(filesOf(scenario.files))) writeFileSync(join(config, name), text);
    const plainConfig = join(dir, 'plain.terraformrc');
    writeFileSync(plainConfig, devOverridesConfig(BIN_DIR));
    // The recording providers: launchers named as Terraform looks for them.
    const launchers = join(dir, 'recording-bin');
    mkdirSync(launchers);
    for (const name of ['sec', 'vdb']) {
      const launcher = join(launchers, `terraform-provider-${name}`);
      writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${RECORDER}" ${name} "$@"\n`);
      chmodSync(launcher, 0o755);
    }
    const recordingConfig = join(dir, 'recording.terraformrc');
    writeFileSync(recordingConfig, providerInstallationConfig({ 'keel/sec': launchers, 'keel/vdb': launchers }));
    const recordings = join(dir, 'recordings');
    mkdirSync(recordings);
    const run = async (release: RecordingClient, args: readonly string[], cliConfig: string, fails?: string) => {
      const env = terraformEnv(dir, cliConfig, { ...emulator.env, KEEL_RECORD_DIR: recordings });
      const result = await runCommand(terraformFor(release), [`-chdir=${config}`, ...args], { env });
      const output = `${result.stdout}\n${result.stderr}`;
      const as = fails === undefined ? result.code === 0 : result.code !== 0 && output.includes(fails);
      if (!as)
        throw new Error(
          `${scenario.name}: terraform ${args.join(' ')} exited ${result.code}` +
            `${fails === undefined ? '' : `, where it should fail saying ${JSON.stringify(fails)}`}\n${output}`,
        );
    };
    for (const step of scenario.setup ?? []) await run(step.terraform, step.args, plainConfig);
    for (const [name, text] of Object.entries(scenario.changed ?? {})) writeFileSync(join(config, name), text);
    await run(scenario.terraform, scenario.record, recordingConfig, scenario.fails);
    return readdirSync(recordings)
      .filter((f) => f.startsWith(`${scenario.provider}-`))
      .sort((a, b) => (BigInt(a.split('-')[1]!) < BigInt(b.split('-')[1]!) ? -1 : 1))
      .map((f) => ({
        calls: readFileSync(join(recordings, f), 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as RecordedCall),
      }))
      .filter((p) => p.calls.length > 0);
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A value as people read it in a fixture: unknown values shown as such. */
function readableValue(v: Value): Json {
  if (v instanceof Unknown) return '(unknown)';
  if (v === null) return null;
  if (v instanceof Decimal) return Number(v.text);
  if (v instanceof DynamicValue) return readableValue(v.value);
  if (Array.isArray(v)) return v.map(readableValue);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, readableValue(e)]));
  return v as Json;
}

/** A decoded message with bytes as base64 (what the codecs' fromObject reads back). */
function readable(v: unknown): Json {
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(readable);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, readable(e)]));
  return v as Json;
}

/** The types of the values a request carries, by field, for its readable form. */
function valueTypes(def: ProviderDef<any, any>, rpc: RpcName, request: Msg): Record<string, CtyType> {
  if (rpc === 'CallFunction') {
    const fn = def.functions?.find((f) => f.name === request.name);
    const given: unknown[] = Array.isArray(request.arguments) ? request.arguments : [];
    return fn
      ? Object.fromEntries(given.map((_, i) => [`arguments.${i}`, (fn.parameters[i] ?? fn.variadic)!.type]))
      : {};
  }
  const type = String(request.type_name ?? request.action_type ?? '');
  const resource = def.resources.find((r) => r.typeName === type);
  const action = def.actions?.find((a) => a.typeName === type);
  if (rpc === 'ValidateProviderConfig' || rpc === 'ConfigureProvider') return { config: impliedType(def.schema.block) };
  if (action) return { config: impliedType(action.schema.block) };
  if (!resource) return {};
  if (rpc === 'ValidateListResourceConfig' || rpc === 'ListResource')
    return resource.list ? { config: impliedType(resource.list.schema.block) } : {};
  const state = impliedType(resource.schema.block);
  const identity = resource.identity ? identityType(resource.identity) : undefined;
  const out: Record<string, CtyType> = {};
  for (const field of ['config', 'prior_state', 'proposed_new_state', 'planned_state', 'current_state', 'state'])
    out[field] = state;
  if (identity) for (const field of ['prior_identity', 'current_identity', 'planned_identity']) out[field] = identity;
  return out;
}

/**
 * What the values of each recorded request were encoded for: by RPC and the type (or function) it
 * names, a digest of the value types the provider's schema gives them. The replay test holds a fixture's
 * digests to the schema as it is, so a schema change that makes a recording stale says which type
 * changed and the one command that records it again.
 */
export function schemaDigests(
  def: ProviderDef<any, any>,
  steps: readonly { readonly rpc: RpcName; readonly request: Msg }[],
): Record<string, string> {
  const digests = new Map<string, string>();
  for (const { rpc, request } of steps) {
    const types = Object.entries(valueTypes(def, rpc, request)).sort(([a], [b]) => (a < b ? -1 : 1));
    if (types.length === 0) continue;
    const named = String(request.type_name ?? request.action_type ?? request.name ?? '');
    const json = JSON.stringify(types.map(([field, type]) => [field, typeToJSON(type)]));
    digests.set(named ? `${rpc} ${named}` : rpc, createHash('sha256').update(json).digest('hex').slice(0, 16));
  }
  return Object.fromEntries([...digests].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The values inside a request, decoded (DynamicValues, identities, raw JSON states), for people. */
function readableValues(def: ProviderDef<any, any>, rpc: RpcName, request: Msg): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [field, type] of Object.entries(valueTypes(def, rpc, request))) {
    const value = field.split('.').reduce<Msg | undefined>((v, k) => v?.[k], request);
    const bytes = value?.msgpack ?? value?.identity_data?.msgpack;
    if (bytes && bytes.length > 0) out[field] = readableValue(decodeMsgpack(type, bytes));
  }
  const json = request.raw_state?.json;
  if (json && json.length > 0) out.raw_state = JSON.parse(Buffer.from(json).toString('utf8')) as Json;
  return out;
}

/** Every non-trivial bytes field of a decoded message, by dotted path. */
function bytesFields(message: unknown, at = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (v: unknown, path: string) => {
    if (Buffer.isBuffer(v) || v instanceof Uint8Array) {
      // A null value, an empty private: too common to say where they came from.
      if (v.length >= 4) out.set(path, Buffer.from(v));
    } else if (Array.isArray(v)) v.forEach((e, i) => walk(e, path ? `${path}.${i}` : String(i)));
    else if (v !== null && typeof v === 'object')
      for (const [k, e] of Object.entries(v)) walk(e, path ? `${path}.${k}` : k);
  };
  walk(message, at);
  return out;
}

const clientName = (client: RecordingClient) =>
  client === 'path' ? 'Terraform 1.11.4' : client === 'tofu' ? 'OpenTofu' : `Terraform ${client}`;

const kebab = (rpc: string) => rpc.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

/** The fixture of a scenario from its recording. */
export async function fixtureOf(scenario: Scenario, processes: RecordedProcess[]): Promise<Fixture> {
  const def = await loadProviderDef(scenario.provider);
  const flat = processes.flatMap((p, processIndex) =>
    p.calls.map((call, i) => {
      const types = rpcTypes(SERVICE_NAMES.provider, call.rpc);
      const request = decodeMessage(types.request, Buffer.from(call.request, 'base64')) as Msg;
      const responses = (Array.isArray(call.response) ? call.response : [call.response]).map(
        (r) => decodeMessage(types.response, Buffer.from(r, 'base64')) as Msg,
      );
      const response = Array.isArray(call.response) ? { events: responses } : responses[0]!;
      return { call, request, response, processIndex, first: i === 0 };
    }),
  );
  // The expectations, each on the one request it selects.
  const selected = new Map<number, StepExpectation>();
  for (const want of scenario.expect) {
    const matches = flat
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.call.rpc === want.rpc)
      .filter(({ s }) => !want.typeName || (s.request.type_name ?? s.request.action_type) === want.typeName)
      .filter(
        ({ s }) =>
          !want.holding ||
          JSON.stringify(readable(s.request)).includes(want.holding) ||
          JSON.stringify(readableValues(def, s.call.rpc, s.request)).includes(want.holding),
      );
    const match = want.nth === 'last' ? matches.at(-1) : matches[0];
    if (!match) throw new Error(`${scenario.name}: Terraform sent no ${want.rpc} that ${want.id} selects`);
    if (selected.has(match.i)) throw new Error(`${scenario.name}: ${want.id} selects a request already selected`);
    selected.set(match.i, want);
  }
  const counts = new Map<string, number>();
  const ids: string[] = [];
  const steps: FixtureStep[] = flat.map((s, i) => {
    const want = selected.get(i);
    const n = counts.get(s.call.rpc) ?? 0;
    counts.set(s.call.rpc, n + 1);
    const id = want?.id ?? `${kebab(s.call.rpc)}-${n}`;
    ids.push(id);
    // The bytes it copies from an earlier answer, as Terraform hands them back.
    const sameAs: Record<string, string> = {};
    for (const [field, bytes] of bytesFields(s.request)) {
      for (let j = i - 1; j >= 0; j--) {
        const from = [...bytesFields(flat[j]!.response)].find(([, b]) => b.equals(bytes));
        if (from) {
          sameAs[field] = `${ids[j]}.${from[0]}`;
          break;
        }
      }
    }
    return {
      id,
      rpc: s.call.rpc,
      note: want?.note ?? '',
      request: readable(s.request),
      values: readableValues(def, s.call.rpc, s.request),
      bytes: s.call.request,
      ...(Object.keys(sameAs).length > 0 ? { sameAs } : {}),
      expect: want?.expect ?? {},
      ...(s.first && s.processIndex > 0
        ? { newProcess: `Terraform starts provider process ${s.processIndex + 1} of the command here.` }
        : {}),
    };
  });
  return {
    name: scenario.name,
    terraform: scenario.terraform,
    command: scenario.command,
    provider: scenario.provider,
    recorded: {
      files: filesOf(scenario.files),
      setup: (scenario.setup ?? []).map((s) => `terraform ${s.args.join(' ')} (${clientName(s.terraform)})`),
      ...(scenario.changed ? { changed: { ...scenario.changed } } : {}),
      command: `${scenario.terraform === 'tofu' ? 'tofu' : 'terraform'} ${scenario.record.join(' ')}`,
    },
    schemas: schemaDigests(
      def,
      flat.map((s) => ({ rpc: s.call.rpc, request: s.request })),
    ),
    steps,
  };
}

if (process.argv[1]?.endsWith('record-fixtures.js')) {
  const wanted = process.argv.slice(2);
  for (const scenario of SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    const started = Date.now();
    const fixture = await fixtureOf(scenario, await record(scenario));
    writeFileSync(join(FIXTURES_DIR, `${fixture.name}.json`), fixtureText(fixture));
    console.log(
      `recorded ${fixture.name}.json under ${clientName(scenario.terraform)}: ${fixture.steps.length} requests in ` +
        `${new Set(fixture.steps.filter((s) => s.newProcess).map((s) => s.id)).size + 1} processes ` +
        `(${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
}
