import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { decodePlain, encodePlain, type Plain } from '../../src/clients/vdb/codec.js';
import { VDB_SERVICES, vdbMethod } from '../../src/wire/vdb-proto.js';
import { UsageError, parseEmulatorArgs } from '../../src/emulators/cli.js';
import { FAULT_KINDS, SeededFaults, type FaultKind } from '../../src/emulators/core/index.js';
import {
  FaultProfileError,
  startSecEmulator,
  type FaultProfileOptions,
  type SecEmulator,
} from '../../src/emulators/sec/index.js';
import {
  RETRY_AFTER_METADATA,
  VDB_COLLECTIONS,
  startVdbEmulator,
  type VdbEmulator,
} from '../../src/emulators/vdb/index.js';

const CHANNELS = '/api/v2/AlertChannels';
const PROFILE = '/api/v2/UserProfile';
const TOKENS = '/api/v2/access/tokens';

/** What a client saw: a status and body, or a connection closed without an answer. */
type HttpOutcome = { status: number; body: any; headers: Headers; ms: number } | { dropped: true; ms: number };

/** Raw HTTP, so these tests do not depend on the client under test. */
async function httpCall(
  emulator: SecEmulator,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpOutcome> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const started = Date.now();
  try {
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text === '' ? undefined : JSON.parse(text),
      headers: response.headers,
      ms: Date.now() - started,
    };
  } catch (error) {
    // undici: "fetch failed", caused by "other side closed".
    expect((error as { cause?: { code?: string } }).cause?.code).to.equal('UND_ERR_SOCKET');
    return { dropped: true, ms: Date.now() - started };
  }
}

function answered(outcome: HttpOutcome): { status: number; body: any; headers: Headers; ms: number } {
  expect(outcome, 'an answer, not a dropped connection').to.have.property('status');
  return outcome as { status: number; body: any; headers: Headers; ms: number };
}

async function login(emulator: SecEmulator): Promise<string> {
  const outcome = answered(
    await httpCall(emulator, 'POST', TOKENS, {
      body: { keyId: emulator.apiKey },
      headers: { 'X-SEC-UAKS': emulator.apiSecret },
    }),
  );
  expect(outcome.status).to.equal(201);
  return outcome.body.token as string;
}

const channel = (name: string) => ({
  name,
  type: 'EmailUser',
  enabled: 1,
  data: { channelProps: { recipients: ['ops@example.com'] } },
});

type GrpcOutcome =
  | { ok: true; response: Plain; ms: number }
  | { ok: false; code: grpc.status; details: string; trailers: grpc.Metadata; ms: number };

/** Raw gRPC calls over one channel, without the client under test. */
class RawGrpc {
  private readonly client: grpc.Client;

  constructor(private readonly emulator: VdbEmulator) {
    this.client = new grpc.Client(`127.0.0.1:${emulator.port}`, grpc.credentials.createInsecure());
  }

  call(service: string, method: string, request: Plain): Promise<GrpcOutcome> {
    const info = vdbMethod(service, method);
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `apikey ${this.emulator.apiKey}`);
    const started = Date.now();
    return new Promise((resolve) => {
      this.client.makeUnaryRequest<Buffer, Buffer>(
        info.path,
        (bytes) => bytes,
        (bytes) => bytes,
        encodePlain(info.request, request),
        metadata,
        { deadline: Date.now() + 10_000 },
        (error, bytes) => {
          const ms = Date.now() - started;
          resolve(
            error
              ? { ok: false, code: error.code, details: error.details, trailers: error.metadata, ms }
              : { ok: true, response: decodePlain(info.response, bytes!), ms },
          );
        },
      );
    });
  }

  close(): void {
    this.client.close();
  }
}

const listRoles = (raw: RawGrpc, emulator: VdbEmulator) =>
  raw.call(VDB_SERVICES.iam, 'ListRoles', { accountId: emulator.accountId });
const createRole = (raw: RawGrpc, emulator: VdbEmulator, name: string) =>
  raw.call(VDB_SERVICES.iam, 'CreateRole', {
    role: {
      accountId: emulator.accountId,
      name,
      roleType: 'ROLE_TYPE_CUSTOM',
      permissions: [{ value: 'read:clusters' }],
    },
  });

function customRoleNames(emulator: VdbEmulator): string[] {
  return emulator
    .list<{ name: string; roleType: string }>(VDB_COLLECTIONS.roles)
    .filter((role) => role.roleType === 'ROLE_TYPE_CUSTOM')
    .map((role) => role.name);
}

describe('seeded fault profile', () => {
  describe('decisions (SeededFaults)', () => {
    it('gives each kind its share, and ambiguous only to creates', () => {
      const faults = new SeededFaults({ seed: 7, rate: 0.5 });
      const createKinds = new Map<FaultKind, number>();
      for (let i = 0; i < 20_000; i++) {
        const decision = faults.decide(true);
        if (decision) createKinds.set(decision.kind, (createKinds.get(decision.kind) ?? 0) + 1);
      }
      // 20 000 calls × 0.5 / 5 kinds = 2000 each.
      for (const kind of FAULT_KINDS) expect(createKinds.get(kind), kind).to.be.within(1_800, 2_200);

      const otherKinds = new Map<FaultKind, number>();
      for (let i = 0; i < 20_000; i++) {
        const decision = faults.decide(false);
        if (decision) otherKinds.set(decision.kind, (otherKinds.get(decision.kind) ?? 0) + 1);
      }
      expect(otherKinds.has('ambiguous')).to.equal(false);
      // 10 000 faults over the four other kinds.
      for (const kind of FAULT_KINDS.filter((kind) => kind !== 'ambiguous'))
        expect(otherKinds.get(kind), kind).to.be.within(2_250, 2_750);
      const stats = faults.stats();
      expect(stats.calls).to.equal(40_000);
      expect(stats.injected).to.equal([...createKinds.values(), ...otherKinds.values()].reduce((a, b) => a + b, 0));
    });

    it('decides the n-th call from the seed and n alone, whatever the kinds decided before', () => {
      // Whether earlier calls were creates changes which kinds they could get, not the later decisions.
      const a = new SeededFaults({ seed: 99, rate: 0.3 });
      const b = new SeededFaults({ seed: 99, rate: 0.3 });
      for (let i = 0; i < 50; i++) {
        a.decide(true);
        b.decide(false);
      }
      const tail = (faults: SeededFaults) => Array.from({ length: 200 }, () => faults.decide(false)?.kind ?? 'none');
      expect(tail(a)).to.deep.equal(tail(b));
    });

    it('refuses invalid options with the option name and value', () => {
      const cases: Array<[FaultProfileOptions, string]> = [
        [{ seed: -1, rate: 0.1 }, 'seed must be an integer from 0 to 4294967295, got -1'],
        [{ seed: 1.5, rate: 0.1 }, 'seed must be an integer from 0 to 4294967295, got 1.5'],
        [{ seed: 1, rate: 1.5 }, 'rate must be a number from 0 to 1, got 1.5'],
        [{ seed: 1, rate: Number.NaN }, 'rate must be a number from 0 to 1, got NaN'],
        [{ seed: 1, rate: 0.1, kinds: [] }, 'kinds must name at least one of'],
        [
          { seed: 1, rate: 0.1, kinds: ['drop', 'explode' as FaultKind] },
          'kinds must be among rate-limit, server-error, drop, slow, ambiguous, got "explode"',
        ],
        [{ seed: 1, rate: 0.1, kinds: ['drop', 'drop'] }, 'kinds must not repeat a kind, got "drop"'],
        [{ seed: 1, rate: 0.1, retryAfterSeconds: 0.5 }, 'retryAfterSeconds must be a whole number of seconds'],
        [{ seed: 1, rate: 0.1, slowMs: -1 }, 'slowMs must be a whole number of milliseconds'],
      ];
      for (const [options, message] of cases) {
        expect(() => new SeededFaults(options), message).to.throw(FaultProfileError, message);
      }
    });
  });

  describe('sec emulator (HTTP)', () => {
    let emulator: SecEmulator;
    let token: string;

    beforeEach(async () => {
      emulator = await startSecEmulator({ account: 'acme' });
      token = await login(emulator);
    });
    afterEach(() => emulator.close());

    /** A mixed sequence of creates and reads; what the client saw and what the log says each call got. */
    async function runSequence(seed: number): Promise<Array<{ outcome: string; fault: FaultKind | 'none' }>> {
      emulator.setFaultProfile({ seed, rate: 0.5, slowMs: 5 });
      emulator.clearRequests();
      const outcomes: string[] = [];
      for (let i = 0; i < 60; i++) {
        const outcome =
          i % 3 === 0
            ? await httpCall(emulator, 'POST', CHANNELS, { token, body: channel(`ch-${i}`) })
            : await httpCall(emulator, 'GET', CHANNELS, { token });
        outcomes.push('dropped' in outcome ? 'dropped' : String(outcome.status));
      }
      emulator.setFaultProfile(undefined);
      expect(emulator.requests).to.have.length(60);
      return emulator.requests.map((request, index) => ({
        outcome: outcomes[index]!,
        fault: request.injectedFault ?? 'none',
      }));
    }

    it('injects the same faults for the same seed and call sequence, and other faults for another seed', async () => {
      const first = await runSequence(42);
      await emulator.close();
      emulator = await startSecEmulator({ account: 'acme' });
      token = await login(emulator);
      const again = await runSequence(42);
      expect(again).to.deep.equal(first);

      const kinds = new Set(first.map((call) => call.fault));
      expect([...kinds].sort()).to.deep.equal([...FAULT_KINDS, 'none'].sort());
      // What the client saw matches the kind the emulator logged.
      for (const { outcome, fault } of first) {
        const expected = {
          none: /^20[01]$/,
          slow: /^20[01]$/,
          'rate-limit': /^429$/,
          'server-error': /^50[234]$/,
          drop: /^dropped$/,
          ambiguous: /^dropped$/,
        }[fault];
        expect(outcome, fault).to.match(expected);
      }

      await emulator.close();
      emulator = await startSecEmulator({ account: 'acme' });
      token = await login(emulator);
      const otherSeed = await runSequence(43);
      expect(otherSeed.map((call) => call.fault)).not.to.deep.equal(first.map((call) => call.fault));
    });

    it('faults roughly the given share of 1000 calls and counts them', async () => {
      emulator.setFaultProfile({ seed: 2024, rate: 0.2, kinds: ['rate-limit', 'server-error'] });
      let faulted = 0;
      for (let i = 0; i < 1_000; i++) {
        const outcome = answered(await httpCall(emulator, 'GET', PROFILE, { token }));
        if (outcome.status !== 200) faulted++;
      }
      expect(faulted).to.be.within(160, 240);
      const stats = emulator.faultStats();
      expect(stats.calls).to.equal(1_000);
      expect(stats.injected).to.equal(faulted);
      expect(stats.byKind['rate-limit'] + stats.byKind['server-error']).to.equal(faulted);
      expect(stats.byKind).to.include({ drop: 0, slow: 0, ambiguous: 0 });
      expect(emulator.requests.filter((request) => request.injectedFault !== undefined)).to.have.length(faulted);
    });

    it('rate-limit: 429 with Retry-After, on the token endpoint too', async () => {
      emulator.setFaultProfile({ seed: 1, rate: 1, kinds: ['rate-limit'], retryAfterSeconds: 7 });
      const limited = answered(await httpCall(emulator, 'GET', CHANNELS, { token }));
      expect(limited.status).to.equal(429);
      expect(limited.headers.get('retry-after')).to.equal('7');
      expect(limited.body.message).to.equal('rate limit exceeded (injected fault); retry after 7 s');

      const tokenAnswer = answered(
        await httpCall(emulator, 'POST', TOKENS, {
          body: { keyId: emulator.apiKey },
          headers: { 'X-SEC-UAKS': emulator.apiSecret },
        }),
      );
      expect(tokenAnswer.status).to.equal(429);
      expect(emulator.faultStats().byKind['rate-limit']).to.equal(2);
    });

    it('server-error: 502, 503 and 504, without handling the request', async () => {
      emulator.setFaultProfile({ seed: 5, rate: 1, kinds: ['server-error'] });
      const statuses = new Set<number>();
      for (let i = 0; i < 30; i++) {
        const outcome = answered(await httpCall(emulator, 'POST', CHANNELS, { token, body: channel(`ch-${i}`) }));
        statuses.add(outcome.status);
        expect(outcome.body.message).to.match(/\(injected fault\)$/);
      }
      expect([...statuses].sort()).to.deep.equal([502, 503, 504]);
      expect(emulator.list('AlertChannels')).to.deep.equal([]);
    });

    it('drop: closes the connection before the request is handled', async () => {
      emulator.setFaultProfile({ seed: 5, rate: 1, kinds: ['drop'] });
      const outcome = await httpCall(emulator, 'POST', CHANNELS, { token, body: channel('dropped') });
      expect(outcome).to.have.property('dropped', true);
      emulator.setFaultProfile(undefined);
      expect(emulator.list('AlertChannels')).to.deep.equal([]);
      expect(emulator.faultStats()).to.deep.include({ calls: 1, injected: 1 });
    });

    it('slow: answers normally after slowMs', async () => {
      emulator.setFaultProfile({ seed: 5, rate: 1, kinds: ['slow'], slowMs: 250 });
      const outcome = answered(await httpCall(emulator, 'POST', CHANNELS, { token, body: channel('slow') }));
      expect(outcome.status).to.equal(201);
      expect(outcome.ms).to.be.at.least(240);
      expect(emulator.list<{ name: string }>('AlertChannels').map((item) => item.name)).to.deep.equal(['slow']);
    });

    it('slow: a create whose client goes away before the answer is still carried out, as the platform does', async () => {
      emulator.setFaultProfile({ seed: 5, rate: 1, kinds: ['slow'], slowMs: 300 });
      const gone = new AbortController();
      const call = fetch(`${emulator.url}${CHANNELS}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(channel('abandoned')),
        signal: gone.signal,
      });
      setTimeout(() => gone.abort(), 50);
      await call.then(
        () => expect.fail('the client went away before the answer'),
        (error: unknown) => expect((error as Error).name).to.equal('AbortError'),
      );
      expect(emulator.list('AlertChannels'), 'not yet: the emulator is still working on it').to.deep.equal([]);
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(emulator.list<{ name: string }>('AlertChannels').map((item) => item.name)).to.deep.equal(['abandoned']);
    });

    it('ambiguous: the create takes effect and the client gets no answer; other calls are not ambiguous', async () => {
      emulator.setFaultProfile({ seed: 5, rate: 1, kinds: ['ambiguous'] });
      const outcome = await httpCall(emulator, 'POST', CHANNELS, { token, body: channel('ambiguous') });
      expect(outcome).to.have.property('dropped', true);
      expect(emulator.list<{ name: string }>('AlertChannels').map((item) => item.name)).to.deep.equal(['ambiguous']);

      // Reads, searches and the token endpoint create nothing a client adopts: no fault for them.
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.equal(200);
      expect(
        answered(await httpCall(emulator, 'POST', '/api/v2/AgentAccessTokens/search', { token, body: { filters: [] } }))
          .status,
      ).to.equal(200);
      expect(
        answered(
          await httpCall(emulator, 'POST', TOKENS, {
            body: { keyId: emulator.apiKey },
            headers: { 'X-SEC-UAKS': emulator.apiSecret },
          }),
        ).status,
      ).to.equal(201);
      expect(emulator.faultStats()).to.deep.equal({
        calls: 4,
        injected: 1,
        byKind: { 'rate-limit': 0, 'server-error': 0, drop: 0, slow: 0, ambiguous: 1 },
      });
    });

    it('one-shot ambiguous fault: handled, then the socket is closed; the next call is answered', async () => {
      emulator.injectFault({ method: 'POST', path: CHANNELS, ambiguous: true });
      const outcome = await httpCall(emulator, 'POST', CHANNELS, { token, body: channel('once') });
      expect(outcome).to.have.property('dropped', true);
      const stored = emulator.list<{ intgGuid: string; name: string }>('AlertChannels');
      expect(stored.map((item) => item.name)).to.deep.equal(['once']);
      const read = answered(await httpCall(emulator, 'GET', `${CHANNELS}/${stored[0]!.intgGuid}`, { token }));
      expect(read.status).to.equal(200);
      expect(read.body.data.name).to.equal('once');
    });

    it('switches on and off at runtime; counters restart with a new profile and survive switching off', async () => {
      emulator.setFaultProfile({ seed: 3, rate: 1, kinds: ['server-error'] });
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.be.within(502, 504);
      emulator.setFaultProfile(undefined);
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.equal(200);
      expect(emulator.faultStats()).to.deep.include({ calls: 1, injected: 1 });

      expect(() => emulator.setFaultProfile({ seed: 3, rate: 2 })).to.throw(
        FaultProfileError,
        'rate must be a number from 0 to 1, got 2',
      );
      emulator.setFaultProfile({ seed: 3, rate: 0 });
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.equal(200);
      expect(emulator.faultStats()).to.deep.include({ calls: 1, injected: 0 });
    });

    it('one-shot faults win over the profile, which does not see those calls', async () => {
      emulator.setFaultProfile({ seed: 3, rate: 1, kinds: ['rate-limit'] });
      emulator.injectFault({ method: 'GET', path: CHANNELS, status: 418 });
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.equal(418);
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.equal(429);
      expect(emulator.faultStats()).to.deep.include({ calls: 1, injected: 1 });
    });

    it("sets the account's rate limit while it runs, and lifts it", async () => {
      emulator.setRateLimit({ perSecond: 0.001, burst: 1 });
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.equal(200);
      const limited = answered(await httpCall(emulator, 'GET', CHANNELS, { token }));
      expect(limited.status).to.equal(429);
      expect(emulator.rateLimitStats()).to.deep.include({ admitted: 1, refused: 1 });
      emulator.setRateLimit(undefined);
      expect(answered(await httpCall(emulator, 'GET', CHANNELS, { token })).status).to.equal(200);
    });

    it('takes the profile as a start option, faulting the first token request', async () => {
      const faulty = await startSecEmulator({ faultProfile: { seed: 1, rate: 1, kinds: ['rate-limit'] } });
      try {
        const outcome = answered(
          await httpCall(faulty, 'POST', TOKENS, {
            body: { keyId: faulty.apiKey },
            headers: { 'X-SEC-UAKS': faulty.apiSecret },
          }),
        );
        expect(outcome.status).to.equal(429);
        expect(faulty.requests[0]!.injectedFault).to.equal('rate-limit');
      } finally {
        await faulty.close();
      }
    });
  });

  describe('vdb emulator (gRPC)', () => {
    let emulator: VdbEmulator;
    let raw: RawGrpc;

    beforeEach(async () => {
      emulator = await startVdbEmulator();
      raw = new RawGrpc(emulator);
    });
    afterEach(async () => {
      raw.close();
      await emulator.close();
    });

    async function runSequence(seed: number): Promise<Array<{ outcome: string; fault: FaultKind | 'none' }>> {
      emulator.setFaultProfile({ seed, rate: 0.5, slowMs: 5 });
      emulator.clearRequests();
      const outcomes: string[] = [];
      for (let i = 0; i < 60; i++) {
        const outcome = i % 3 === 0 ? await createRole(raw, emulator, `role-${i}`) : await listRoles(raw, emulator);
        outcomes.push(outcome.ok ? 'OK' : `${grpc.status[outcome.code]} ${outcome.details}`);
      }
      emulator.setFaultProfile(undefined);
      expect(emulator.requests).to.have.length(60);
      return emulator.requests.map((request, index) => ({
        outcome: outcomes[index]!,
        fault: request.injectedFault ?? 'none',
      }));
    }

    it('injects the same faults for the same seed and call sequence, and other faults for another seed', async () => {
      const first = await runSequence(42);
      const rolesAfterFirst = customRoleNames(emulator);
      raw.close();
      await emulator.close();
      emulator = await startVdbEmulator();
      raw = new RawGrpc(emulator);
      const again = await runSequence(42);
      expect(again).to.deep.equal(first);
      expect(customRoleNames(emulator)).to.deep.equal(rolesAfterFirst);

      expect(new Set(first.map((call) => call.fault))).to.have.keys([...FAULT_KINDS, 'none']);
      for (const { outcome, fault } of first) {
        const expected = {
          none: /^OK$/,
          slow: /^OK$/,
          'rate-limit': /^RESOURCE_EXHAUSTED rate limit exceeded/,
          'server-error': /^UNAVAILABLE service unavailable/,
          drop: /^UNAVAILABLE connection dropped/,
          ambiguous: /^UNAVAILABLE connection lost/,
        }[fault];
        expect(outcome, fault).to.match(expected);
      }

      raw.close();
      await emulator.close();
      emulator = await startVdbEmulator();
      raw = new RawGrpc(emulator);
      const otherSeed = await runSequence(43);
      expect(otherSeed.map((call) => call.fault)).not.to.deep.equal(first.map((call) => call.fault));
    });

    it('faults roughly the given share of 1000 calls and counts them', async () => {
      emulator.setFaultProfile({ seed: 2024, rate: 0.2, kinds: ['rate-limit', 'server-error'] });
      let faulted = 0;
      for (let i = 0; i < 1_000; i++) if (!(await listRoles(raw, emulator)).ok) faulted++;
      expect(faulted).to.be.within(160, 240);
      const stats = emulator.faultStats();
      expect(stats).to.deep.include({ calls: 1_000, injected: faulted });
      expect(stats.byKind['rate-limit'] + stats.byKind['server-error']).to.equal(faulted);
    });

    it('rate-limit: RESOURCE_EXHAUSTED with retry-after trailing metadata', async () => {
      emulator.setFaultProfile({ seed: 1, rate: 1, kinds: ['rate-limit'], retryAfterSeconds: 4 });
      const outcome = await listRoles(raw, emulator);
      if (outcome.ok) expect.fail('expected RESOURCE_EXHAUSTED');
      expect(outcome.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
      expect(outcome.details).to.equal('rate limit exceeded (injected fault); retry after 4 s');
      expect(outcome.trailers.get(RETRY_AFTER_METADATA)).to.deep.equal(['4']);
      expect(outcome.trailers.get('vdb-trace-id')).to.have.length(1);
    });

    it('server-error and drop: UNAVAILABLE, and the create does not happen', async () => {
      for (const kind of ['server-error', 'drop'] as const) {
        emulator.setFaultProfile({ seed: 1, rate: 1, kinds: [kind] });
        const outcome = await createRole(raw, emulator, kind);
        expect(outcome.ok).to.equal(false);
        expect(outcome.ok === false && outcome.code).to.equal(grpc.status.UNAVAILABLE);
      }
      expect(customRoleNames(emulator)).to.deep.equal([]);
    });

    it('slow: answers normally after slowMs', async () => {
      emulator.setFaultProfile({ seed: 1, rate: 1, kinds: ['slow'], slowMs: 250 });
      const outcome = await createRole(raw, emulator, 'slow');
      expect(outcome.ok).to.equal(true);
      expect(outcome.ms).to.be.at.least(240);
      expect(customRoleNames(emulator)).to.deep.equal(['slow']);
    });

    it('slow: a create whose client cancels the call before the answer is still carried out, as the platform does', async () => {
      emulator.setFaultProfile({ seed: 1, rate: 1, kinds: ['slow'], slowMs: 300 });
      const info = vdbMethod(VDB_SERVICES.iam, 'CreateRole');
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `apikey ${emulator.apiKey}`);
      const client = new grpc.Client(`127.0.0.1:${emulator.port}`, grpc.credentials.createInsecure());
      try {
        const code = await new Promise<grpc.status>((resolve) => {
          const call = client.makeUnaryRequest<Buffer, Buffer>(
            info.path,
            (bytes) => bytes,
            (bytes) => bytes,
            encodePlain(info.request, {
              role: {
                accountId: emulator.accountId,
                name: 'abandoned',
                roleType: 'ROLE_TYPE_CUSTOM',
                permissions: [{ value: 'read:clusters' }],
              },
            }),
            metadata,
            (error) => resolve(error ? error.code : grpc.status.OK),
          );
          setTimeout(() => call.cancel(), 50);
        });
        expect(code).to.equal(grpc.status.CANCELLED);
        expect(customRoleNames(emulator), 'not yet: the emulator is still working on it').to.deep.equal([]);
        await new Promise((resolve) => setTimeout(resolve, 450));
        expect(customRoleNames(emulator)).to.deep.equal(['abandoned']);
      } finally {
        client.close();
      }
    });

    it('ambiguous: the Create* call takes effect and answers UNAVAILABLE; other calls are not ambiguous', async () => {
      emulator.setFaultProfile({ seed: 1, rate: 1, kinds: ['ambiguous'] });
      const outcome = await createRole(raw, emulator, 'ambiguous');
      if (outcome.ok) expect.fail('expected UNAVAILABLE');
      expect(outcome.code).to.equal(grpc.status.UNAVAILABLE);
      expect(outcome.details).to.match(/connection lost/);
      expect(customRoleNames(emulator)).to.deep.equal(['ambiguous']);
      expect((await listRoles(raw, emulator)).ok).to.equal(true);
      expect(emulator.faultStats()).to.deep.include({ calls: 2, injected: 1 });
      expect(emulator.requests.map((request) => request.injectedFault)).to.deep.equal(['ambiguous', undefined]);
    });

    it('one-shot ambiguous fault: handled, then UNAVAILABLE; the next call is answered', async () => {
      emulator.injectFault({ method: 'CreateRole', ambiguous: true });
      const outcome = await createRole(raw, emulator, 'once');
      if (outcome.ok) expect.fail('expected UNAVAILABLE');
      expect(outcome.code).to.equal(grpc.status.UNAVAILABLE);
      expect(outcome.details).to.match(/connection lost/);
      const listed = await listRoles(raw, emulator);
      if (!listed.ok) expect.fail(listed.details);
      expect((listed.response.items as Array<{ name: string }>).map((role) => role.name)).to.include('once');
      expect((await createRole(raw, emulator, 'twice')).ok).to.equal(true);
    });

    it('one-shot ambiguous fault on a create that fails validation still loses the answer', async () => {
      emulator.injectFault({ method: 'CreateRole', ambiguous: true, message: 'gone' });
      const outcome = await raw.call(VDB_SERVICES.iam, 'CreateRole', {
        role: { accountId: emulator.accountId, name: 'x', roleType: 'ROLE_TYPE_CUSTOM', permissions: [] },
      });
      expect(outcome).to.deep.include({ ok: false, code: grpc.status.UNAVAILABLE, details: 'gone' });
      expect(customRoleNames(emulator)).to.deep.equal([]);
    });

    it('takes the profile as a start option and can be switched off', async () => {
      const faulty = await startVdbEmulator({ faultProfile: { seed: 9, rate: 1, kinds: ['server-error'] } });
      const rawFaulty = new RawGrpc(faulty);
      try {
        expect((await listRoles(rawFaulty, faulty)).ok).to.equal(false);
        faulty.setFaultProfile(undefined);
        expect((await listRoles(rawFaulty, faulty)).ok).to.equal(true);
        expect(faulty.faultStats()).to.deep.include({ calls: 1, injected: 1 });
      } finally {
        rawFaulty.close();
        await faulty.close();
      }
    });
  });

  describe('command line', () => {
    const fixedSeed = () => 12345;
    const parse = (...argv: string[]) => parseEmulatorArgs(argv, fixedSeed);

    it('parses fault flags in both spellings', () => {
      expect(parse('sec')).to.deep.equal({ name: 'sec', port: 0, seedWasRandom: false });
      expect(
        parse(
          'vdb',
          '--port',
          '8080',
          '--fault-rate',
          '0.2',
          '--fault-seed',
          '42',
          '--fault-kinds',
          'slow,drop',
          '--retry-after',
          '3',
          '--slow-ms=50',
        ),
      ).to.deep.equal({
        name: 'vdb',
        port: 8080,
        faultProfile: { seed: 42, rate: 0.2, kinds: ['slow', 'drop'], retryAfterSeconds: 3, slowMs: 50 },
        seedWasRandom: false,
      });
      expect(parse('sec', '--rate-limit', '2.5')).to.deep.equal({
        name: 'sec',
        port: 0,
        seedWasRandom: false,
        rateLimit: { perSecond: 2.5 },
      });
      expect(parse('sec', '--fault-rate=0.5')).to.deep.equal({
        name: 'sec',
        port: 0,
        faultProfile: { seed: 12345, rate: 0.5 },
        seedWasRandom: true,
      });
    });

    it('refuses bad flags with a message naming the flag', () => {
      const cases: Array<[string[], string]> = [
        [[], 'missing emulator name'],
        [['nope'], 'unknown emulator: nope'],
        [['sec', '--fault-ratio', '1'], 'unknown argument: --fault-ratio'],
        [['sec', '--fault-rate'], '--fault-rate needs a value'],
        [['sec', '--fault-rate='], '--fault-rate needs a value'],
        [['sec', '--fault-rate', '0.1', '--fault-rate', '0.2'], '--fault-rate is given twice'],
        [['sec', '--fault-rate', 'lots'], '--fault-rate must be a number, got lots'],
        [['sec', '--fault-rate', '0x1'], '--fault-rate must be a number, got 0x1'],
        [['sec', '--fault-rate', '1.5'], '--fault-rate must be a number from 0 to 1, got 1.5'],
        [
          ['sec', '--fault-rate', '0.1', '--fault-seed', '-1'],
          '--fault-seed must be an integer from 0 to 4294967295, got -1',
        ],
        [['sec', '--fault-rate', '0.1', '--fault-seed', '2.5'], '--fault-seed must be a whole number, got 2.5'],
        [
          ['sec', '--fault-rate', '0.1', '--fault-kinds', 'drop,explode'],
          '--fault-kinds must be among rate-limit, server-error, drop, slow, ambiguous, got "explode"',
        ],
        [
          ['sec', '--fault-rate', '0.1', '--fault-kinds', 'drop,drop'],
          '--fault-kinds must not repeat a kind, got "drop"',
        ],
        [['sec', '--fault-rate', '0.1', '--retry-after', '0.5'], '--retry-after must be a whole number, got 0.5'],
        [
          ['sec', '--fault-rate', '0.1', '--slow-ms', '-5'],
          '--slow-ms must be a whole number of milliseconds from 0 to 600000, got -5',
        ],
        [['vdb', '--fault-seed', '4'], '--fault-seed needs --fault-rate (the share of calls to fault)'],
        [['vdb', '--port', '70000'], '--port must be from 0 to 65535, got 70000'],
        [['sec', '--rate-limit', '0'], '--rate-limit must be above 0 and at most 1000000, got 0'],
        [['sec', '--rate-limit', 'fast'], '--rate-limit must be a number, got fast'],
      ];
      for (const [argv, message] of cases) {
        expect(() => parseEmulatorArgs(argv, fixedSeed), argv.join(' ')).to.throw(UsageError, message);
      }
    });

    const main = fileURLToPath(new URL('../../src/emulators/main.js', import.meta.url));

    it("--rate-limit: calls past the account's rate get 429 with Retry-After", async () => {
      const child = spawn(process.execPath, [main, 'sec', '--rate-limit', '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
        const ready = JSON.parse((await lines.next()).value as string) as { url: string };
        // Unauthenticated calls count too: the limit is the account's front door.
        const statuses = await Promise.all(
          Array.from({ length: 6 }, async () => {
            const answer = await fetch(`${ready.url}/api/v2/AlertChannels`);
            await answer.arrayBuffer();
            return `${answer.status}${answer.headers.get('retry-after') ? ' Retry-After' : ''}`;
          }),
        );
        expect(statuses.filter((status) => status === '429 Retry-After')).to.have.length(3);
      } finally {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    });

    it('prints the profile at start and the counters on SIGINT; stdout keeps only the ready line', async () => {
      const child = spawn(
        process.execPath,
        [main, 'vdb', '--fault-rate', '1', '--fault-seed', '7', '--fault-kinds', 'rate-limit', '--retry-after', '2'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      try {
        const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
        const ready = JSON.parse((await lines.next()).value as string);
        expect(ready).to.have.keys('url', 'api_key', 'account_id');
        expect(stderr).to.include(
          'vdb emulator: fault profile: rate 1, seed 7, kinds rate-limit, retry-after 2 s, slow 300 ms\n',
        );

        const port = Number(new URL(ready.url).port);
        const raw = new RawGrpc({ port, apiKey: ready.api_key } as VdbEmulator);
        try {
          const outcome = await raw.call(VDB_SERVICES.iam, 'ListRoles', { accountId: ready.account_id });
          expect(outcome).to.deep.include({ ok: false, code: grpc.status.RESOURCE_EXHAUSTED });
          expect(outcome.ok === false && outcome.trailers.get(RETRY_AFTER_METADATA)).to.deep.equal(['2']);
        } finally {
          raw.close();
        }

        child.kill('SIGINT');
        const [code] = await once(child, 'exit');
        expect(code).to.equal(0);
        expect(stderr).to.include(
          'vdb emulator: faults: 1 calls, 1 faulted (rate-limit 1, server-error 0, drop 0, slow 0, ambiguous 0)\n',
        );
        expect((await lines.next()).done, 'nothing else on stdout').to.equal(true);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });

    it('prints a random seed so the run can be reproduced', async () => {
      const child = spawn(process.execPath, [main, 'sec', '--fault-rate', '0.1'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      try {
        const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
        await lines.next();
        expect(stderr).to.match(
          /sec emulator: fault profile: rate 0\.1, seed (\d+), .*\(random seed: pass --fault-seed \1 to reproduce\)\n/,
        );
        child.kill('SIGTERM');
        const [code] = await once(child, 'exit');
        expect(code).to.equal(0);
        expect(stderr).to.include('sec emulator: faults: 0 calls, 0 faulted');
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });

    it('exits 2 with the message and usage for a bad flag', async () => {
      const child = spawn(process.execPath, [main, 'sec', '--fault-rate', '0.2', '--fault-kinds', 'drop,explode'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const [code] = await once(child, 'exit');
      expect(code).to.equal(2);
      expect(stderr).to.include(
        '--fault-kinds must be among rate-limit, server-error, drop, slow, ambiguous, got "explode"',
      );
      expect(stderr).to.include('--fault-rate R');
      expect(stdout).to.equal('');
    });
  });
});
