/**
 * The requests real Terraform 1.12.2 (plans and imports with identity) and 1.14.9 (`terraform
 * query`, generated configuration, actions) sent, recorded by `npm run record-fixtures`
 * (record-fixtures.ts, the scenarios of scenarios.ts), replayed byte for byte to the real executables
 * over the gRPC path Terraform uses (go-plugin handshake, mutual TLS), against emulators seeded with
 * the objects they name, each step in a new provider process where Terraform started one. Each
 * response must carry no error, show what the scenario expects (identities, states, list events,
 * action progress, the API calls made and what they sent), and give exactly the bytes that a later
 * recorded request copied from it, as it did for Terraform.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { launchProvider, type LaunchedProvider } from '../../src/tfclient/launch.js';
import { decodeMessage, encodeMessage, rpcTypes, SERVICE_NAMES } from '../../packages/framework/src/server/proto.js';
import { decodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { encodeJSON } from '../../packages/framework/src/schema/json.js';
import { valueToPlain } from '../../packages/framework/src/schema/model.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import {
  identityTypeOf,
  resourceTypeOf,
  seedSec,
  seedVdb,
  VDB_FIXED,
  type Fixture,
  type FixtureStep,
  type Repeated,
} from './seeds.js';
import { FIXTURES_DIR, schemaDigests } from './record-fixtures.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { SCENARIOS } from './scenarios.js';

const BIN = (name: string) => join(process.cwd(), 'bin', `terraform-provider-${name}`);
const NAMES = SCENARIOS.map((s) => s.name);
type Msg = Record<string, any>;

const load = (name: string): Fixture => JSON.parse(readFileSync(join(FIXTURES_DIR, `${name}.json`), 'utf8')) as Fixture;

function at(obj: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      obj,
    );
}

/** A decoded value as Terraform's JSON shows it. */
const jsonOf = (type: CtyType, bytes: Buffer): any => JSON.parse(encodeJSON(type, decodeMsgpack(type, bytes)));
/** A decoded state as plain data (a plan's unknown values as null). */
const plainOf = (type: CtyType, bytes: Buffer): any => valueToPlain(decodeMsgpack(type, bytes));

interface Emulated {
  env: Record<string, string>;
  /** The API calls received since `mark()`. */
  calls(): string[];
  /** What the first call of this name since `mark()` sent: the decoded request (vdb), `{query, body}` (sec). */
  sent(call: string): unknown;
  mark(): void;
  tokenOf(alias: string): string;
  close(): Promise<void>;
}

async function emulate(provider: 'sec' | 'vdb'): Promise<Emulated & { sec?: SecEmulator; vdb?: VdbEmulator }> {
  if (provider === 'sec') {
    const e: SecEmulator = await startSecEmulator();
    await seedSec(e);
    let from = e.requests.length;
    const since = () => e.requests.slice(from).filter((r) => !r.path.startsWith('/api/v2/access/tokens'));
    return {
      sec: e,
      env: secProviderEnv(e),
      calls: () => since().map((r) => `${r.method} ${r.path.split('?')[0]}`),
      sent: (call) => {
        const r = since().find((r) => `${r.method} ${r.path.split('?')[0]}` === call);
        if (!r) return undefined;
        const query = Object.fromEntries(new URLSearchParams(r.path.split('?')[1] ?? ''));
        return { query, body: r.body ?? null };
      },
      mark: () => void (from = e.requests.length),
      tokenOf: (alias) =>
        e.list<{ tokenAlias: string; accessToken: string }>('AgentAccessTokens').find((t) => t.tokenAlias === alias)!
          .accessToken,
      close: () => e.close(),
    };
  }
  const e: VdbEmulator = await startVdbEmulator({
    accountId: VDB_FIXED.account,
    provisioningMs: 20,
    databaseEndpoints: false,
  });
  await seedVdb(e);
  let from = e.requests.length;
  return {
    vdb: e,
    env: vdbProviderEnv(e),
    calls: () => e.requests.slice(from).map((r) => `${r.service}/${r.method}`),
    sent: (call) => e.requests.slice(from).find((r) => `${r.service}/${r.method}` === call)?.request,
    mark: () => void (from = e.requests.length),
    tokenOf: () => '',
    close: () => e.close(),
  };
}

describe('protocol: Terraform 1.12 and 1.14 request sequences replayed byte for byte', function () {
  this.timeout(60_000);

  it('the committed fixtures are recordings of the scenarios, each expectation on a recorded request', () => {
    expect(readdirSync(FIXTURES_DIR).sort()).to.deep.equal(NAMES.map((n) => `${n}.json`).sort());
    for (const scenario of SCENARIOS) {
      const fixture = load(scenario.name);
      expect(fixture.terraform, scenario.name).to.equal(scenario.terraform);
      const cli = scenario.terraform === 'tofu' ? 'tofu' : 'terraform';
      expect(fixture.recorded.command, scenario.name).to.equal(`${cli} ${scenario.record.join(' ')}`);
      const ids = fixture.steps.map((step) => step.id);
      for (const want of scenario.expect) {
        const step = fixture.steps.find((s) => s.id === want.id);
        expect(step, `${scenario.name}: ${want.id} (record again: npm run record-fixtures)`).to.not.equal(undefined);
        expect(step!.rpc).to.equal(want.rpc);
        expect(step!.expect).to.deep.equal(want.expect);
      }
      expect(new Set(ids).size, `${scenario.name}: step ids are unique`).to.equal(ids.length);
    }
  });

  it('each readable request encodes to exactly its recorded bytes', () => {
    for (const name of NAMES) {
      for (const step of load(name).steps) {
        const bytes = encodeMessage(rpcTypes(SERVICE_NAMES.provider, step.rpc).request, step.request as Msg);
        expect(bytes.toString('base64'), `${name} ${step.id}`).to.equal(step.bytes);
      }
    }
  });

  for (const name of NAMES) {
    describe(name, () => {
      const fixture = load(name);
      let emulated: Emulated;
      let plugin: LaunchedProvider;
      /** Steps the current process has served: a new process is started only after one has. */
      let served = 0;
      const responses = new Map<string, Msg>();
      before(async () => {
        // A recording made for an older schema cannot be replayed; say so, and how to record it again.
        const now = schemaDigests(
          await loadProviderDef(fixture.provider),
          fixture.steps.map((step) => ({ rpc: step.rpc, request: step.request as Msg })),
        );
        const keys = new Set([...Object.keys(now), ...Object.keys(fixture.schemas)]);
        const changed = new Set(
          [...keys].filter((key) => now[key] !== fixture.schemas[key]).map((key) => key.split(' ').at(-1)),
        );
        if (changed.size > 0)
          throw new Error(
            `${name} was recorded for another schema of ${[...changed].join(', ')}: record it again with ` +
              `\`npm run record-fixtures -- ${name}\` (after npm run build; its Terraform comes from npm run clients)`,
          );
        emulated = await emulate(fixture.provider);
        plugin = await launchProvider(BIN(fixture.provider), { env: emulated.env });
      });
      after(async () => {
        await plugin?.shutdown();
        await emulated?.close();
      });

      for (const step of fixture.steps) {
        it(`${step.newProcess ? '(new process) ' : ''}${step.id}: ${step.rpc}`, async () => {
          const bytes = Buffer.from(step.bytes, 'base64');
          const types = rpcTypes(SERVICE_NAMES.provider, step.rpc);
          if (step.newProcess && served > 0) {
            await plugin.shutdown();
            plugin = await launchProvider(BIN(fixture.provider), { env: emulated.env });
            served = 0;
          }
          served++;
          emulated.mark();
          let raw: Buffer = Buffer.alloc(0);
          let response: Msg;
          if (step.rpc === 'InvokeAction' || step.rpc === 'ListResource') {
            const events: Msg[] = [];
            const chunks: Buffer[] = [];
            for await (const chunk of plugin.serverStreamRaw(step.rpc, bytes)) {
              chunks.push(chunk as Buffer);
              events.push(decodeMessage(types.response, chunk as Buffer));
            }
            raw = Buffer.concat(chunks);
            response = { events };
            if (step.rpc === 'ListResource')
              for (const e of events) expect(e.diagnostic, 'no diagnostics in list events').to.deep.equal([]);
          } else {
            raw = await plugin.callRaw(step.rpc, bytes);
            response = decodeMessage(types.response, raw);
            expect(
              (response.diagnostics ?? []).filter((d: Msg) => d.severity !== 2),
              'no error diagnostics',
            ).to.deep.equal([]);
          }
          responses.set(step.id, response);
          await check(fixture, step, response, emulated);
          for (const secret of step.expect.withholds ?? [])
            expect(raw.includes(Buffer.from(secret)), 'the answer holds a secret').to.equal(false);
          for (const [field, source] of Object.entries(step.sameAs ?? {})) {
            const [from, ...path] = source.split('.');
            const given = at(decodeMessage(types.request, bytes), field) as Buffer;
            const got = at(responses.get(from!), path.join('.')) as Buffer;
            expect(
              Buffer.from(given ?? []).equals(Buffer.from(got ?? [])),
              `the recorded ${field} is what ${source} answered`,
            ).to.equal(true);
          }
        });
      }
    });
  }
});

async function check(fixture: Fixture, step: FixtureStep, response: Msg, emulated: Emulated): Promise<void> {
  const x = step.expect;
  const typeName = String((step.request as Msg).type_name ?? '');
  if (x.identitySchemas) {
    for (const [type, attributes] of Object.entries(x.identitySchemas)) {
      const schema = response.identity_schemas[type];
      expect(Number(schema.version), `${type} identity version`).to.equal(0);
      expect(
        schema.identity_attributes.map((a: Msg) => ({
          name: a.name,
          required_for_import: a.required_for_import,
          optional_for_import: a.optional_for_import,
        })),
        type,
      ).to.deep.equal(attributes);
    }
  }
  if (x.identity) {
    const data = at(response, `${x.identity.field}.identity_data.msgpack`) as Buffer | undefined;
    if (x.identity.value === null) expect(data?.length ?? 0).to.equal(0);
    else
      expect(jsonOf(await identityTypeOf(fixture.provider, typeName), data!), x.identity.field).to.deep.equal(
        x.identity.value,
      );
  }
  if (x.state) {
    const state = plainOf(
      await resourceTypeOf(fixture.provider, typeName),
      at(response, `${x.state.field}.msgpack`) as Buffer,
    );
    expect(state, x.state.field).to.deep.include(x.state.includes);
  }
  if (x.requiresReplace) expect(response.requires_replace).to.deep.equal([]);
  if (x.config) {
    // Every attribute the expectation does not name is null: a new attribute left unset needs no edit here.
    const config = jsonOf(await resourceTypeOf(fixture.provider, typeName), response.config.msgpack) as Msg;
    const unnamed = Object.keys(config).filter((key) => !Object.hasOwn(x.config!, key));
    expect(config, 'the configuration').to.deep.equal({
      ...Object.fromEntries(unnamed.map((key) => [key, null])),
      ...x.config,
    });
  }
  if (x.warnings)
    expect(
      (response.diagnostics ?? []).filter((d: Msg) => d.severity === 2).map((d: Msg) => d.summary),
      'warnings',
    ).to.deep.equal(x.warnings);
  if (x.events) {
    const events = response.events as Msg[];
    expect(
      events.map((e) => e.display_name),
      'display names',
    ).to.deep.equal(x.events.map((e) => e.display_name));
    const identity = await identityTypeOf(fixture.provider, typeName);
    const resource = await resourceTypeOf(fixture.provider, typeName);
    events.forEach((e, i) => {
      const wanted = x.events![i]!;
      // A fingerprint of a secret cannot be recorded: it is computed from the emulator's token.
      const expectedIdentity = wanted.identity.token_sha256
        ? { token_sha256: createHash('sha256').update(emulated.tokenOf(e.display_name)).digest('hex') }
        : wanted.identity;
      expect(jsonOf(identity, e.identity.identity_data.msgpack), `identity of ${e.display_name}`).to.deep.equal(
        expectedIdentity,
      );
      if (wanted.resource_object === null)
        expect(e.resource_object ?? null, 'no object without include_resource').to.equal(null);
      else
        expect(
          plainOf(resource, e.resource_object.msgpack) as ObjectValue,
          `object of ${e.display_name}`,
        ).to.deep.include(wanted.resource_object!);
    });
  }
  if (x.progress || x.completedErrors) {
    const events = response.events as Msg[];
    const last = events.at(-1);
    expect(last?.completed, 'the last event is Completed').to.not.equal(undefined);
    const lines = events.slice(0, -1).map((e) => {
      expect(e.progress, 'every event before the last is Progress').to.not.equal(undefined);
      return String(e.progress.message);
    });
    if (x.progress) expectSequence(lines, x.progress, 'progress lines');
    const errors = (last!.completed.diagnostics as Msg[]).filter((d) => d.severity === 1).map((d) => d.summary);
    expect(errors, 'errors in the Completed event').to.deep.equal(x.completedErrors ?? []);
  }
  if (x.functionResult !== undefined || x.functionError) {
    const name = String((step.request as Msg).name ?? '');
    const fn = (await loadProviderDef(fixture.provider)).functions?.find((f) => f.name === name);
    expect(fn, `the function ${name}`).to.not.equal(undefined);
    if (x.functionError) {
      expect(response.error?.text ?? '', 'the function error').to.include(x.functionError.includes);
      if (x.functionError.argument !== undefined)
        expect(Number(response.error.function_argument), 'the argument at fault').to.equal(x.functionError.argument);
    } else {
      expect(response.error ?? null, 'no function error').to.equal(null);
      expect(plainOf(fn!.returns, response.result.msgpack), 'the result').to.deep.equal(x.functionResult);
    }
  }
  if (x.apiCalls) expectSequence(emulated.calls(), x.apiCalls, 'the API calls made', true);
  for (const { call, includes } of x.apiRequests ?? [])
    expect(subsetProblems(emulated.sent(call), includes), `what ${call} sent`).to.deep.equal([]);
}

/** Where `actual` does not hold `expected` (objects: at least its keys; numbers may come as text, as int64s do). */
function subsetProblems(actual: unknown, expected: unknown, path = '$'): string[] {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object') return [`${path}: ${JSON.stringify(actual)} is not an object`];
    return Object.entries(expected).flatMap(([k, e]) =>
      subsetProblems((actual as Record<string, unknown>)[k], e, `${path}.${k}`),
    );
  }
  const same =
    typeof expected === 'number' ? Number(actual) === expected : JSON.stringify(actual) === JSON.stringify(expected);
  return same ? [] : [`${path}: ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`];
}

/**
 * `items` match `expected` in order: a text (exactly for calls, as a regular expression for lines),
 * or a Repeated entry that stands for several.
 */
function expectSequence(items: string[], expected: (string | Repeated)[], what: string, exact = false): void {
  const matches = (item: string | undefined, pattern: string) =>
    item !== undefined && (exact ? item === pattern : new RegExp(pattern).test(item));
  let at = 0;
  for (const entry of expected) {
    if (typeof entry === 'string') {
      expect(matches(items[at], entry), `${what}: ${JSON.stringify(items)} at ${at} is ${entry}`).to.equal(true);
      at++;
      continue;
    }
    const pattern = entry.oneOrMore ?? entry.zeroOrMore;
    const start = at;
    while (matches(items[at], pattern)) at++;
    if (entry.oneOrMore !== undefined)
      expect(at, `${what}: ${JSON.stringify(items)} has ${pattern} from ${start}`).to.be.greaterThan(start);
  }
  expect(items.length, `${what}: ${JSON.stringify(items)}, nothing after the first ${at}`).to.equal(at);
}
