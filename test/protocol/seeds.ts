/**
 * What the protocol fixtures (fixtures/*.json) stand on: their format, and the objects they name,
 * seeded into the emulators with fixed ids and times so that a request recorded against them
 * (record-fixtures.ts) is answered the same way when it is replayed (replay.test.ts, actions.test.ts).
 */
import { impliedType } from '../../packages/framework/src/schema/block.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { identityType } from '../../packages/framework/src/engine/resources/identity.js';
import type { RpcName } from '../../packages/framework/src/server/rpcs.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { SecEmulator } from '../../src/emulators/sec/index.js';
import { VDB_COLLECTIONS, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { createSecClient } from '../../src/clients/sec/index.js';
import { createVdbClient } from '../../src/clients/vdb/index.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A line or call that may come several times: `oneOrMore` (at least once) or `zeroOrMore`, matched by a pattern. */
export type Repeated = { oneOrMore: string; zeroOrMore?: undefined } | { zeroOrMore: string; oneOrMore?: undefined };

/** What a response must show; every response must also carry no error diagnostic. */
export interface Expectation {
  /** An identity in the response (a dotted path to a ResourceIdentityData), decoded: exactly this, or absent for null. */
  identity?: { field: string; value: Record<string, string | null> | null };
  /** Attributes a state in the response (a dotted path to a DynamicValue) must hold. */
  state?: { field: string; includes: Record<string, Json> };
  requiresReplace?: [];
  /** GetResourceIdentitySchemas: the identity attributes of these types, in order, with their import roles. */
  identitySchemas?: Record<string, { name: string; required_for_import: boolean; optional_for_import: boolean }[]>;
  /** ListResource: the events, in order (the stream ends after them). */
  events?: { display_name: string; identity: Record<string, string>; resource_object?: Record<string, Json> | null }[];
  /**
   * GenerateResourceConfig: the attributes the configuration answered sets (or leaves null on purpose), as
   * Terraform's JSON shows them; every other is null.
   */
  config?: Record<string, Json>;
  /** The summaries of the warnings answered, in order (none when empty). */
  warnings?: string[];
  /** Texts the answer's bytes must not hold anywhere (a secret of the object). */
  withholds?: string[];
  /**
   * The management-API calls the request makes, in order: `METHOD /path` (sec, without the query
   * and the token exchange) or `service/Method` (vdb); a `Repeated` entry stands for a poll.
   */
  apiCalls?: (string | Repeated)[];
  /** What the named calls sent (the first of each name): the decoded request (vdb) or `{query, body}` (sec). */
  apiRequests?: { call: string; includes: Record<string, Json> }[];
  /** InvokeAction: the progress lines, in order, each matching its pattern (regular expressions). */
  progress?: (string | Repeated)[];
  /** InvokeAction: the summaries of the error diagnostics of the last event, Completed ([] = it succeeded). */
  completedErrors?: string[];
  /** CallFunction: the result, as plain data. */
  functionResult?: Json;
  /** CallFunction: the error, a text it holds and the argument it is at. */
  functionError?: { includes: string; argument?: number };
}

export interface FixtureStep {
  /** Names the step for `sameAs` references. */
  id: string;
  rpc: RpcName;
  /** What Terraform is doing there ('' where the scenario says nothing of it). */
  note: string;
  /** The request message: field names as in tfplugin6.proto, bytes fields as base64. */
  request: Json;
  /** The DynamicValues and identities inside the request, decoded (for people; `bytes` is what is sent). */
  values: Record<string, Json>;
  /** The exact request bytes (base64 of the protobuf encoding). */
  bytes: string;
  /**
   * Request fields that Terraform copies from an earlier response (dotted paths): replaying checks
   * that this response gives exactly those bytes, so the recorded request is what Terraform would send.
   */
  sameAs?: Record<string, string>;
  expect: Expectation;
  /**
   * Terraform starts a new provider process for this step (a new graph walk); what for. The replay
   * does the same, so nothing one process kept can help the next.
   */
  newProcess?: string;
}

export interface Fixture {
  name: string;
  /** The real Terraform release that sent these requests. */
  terraform: string;
  command: string;
  provider: 'sec' | 'vdb';
  /** How the requests were recorded (record-fixtures.ts): the workspace, its set-up and the command. */
  recorded: {
    files: Record<string, string>;
    setup: string[];
    changed?: Record<string, string>;
    command: string;
  };
  /** What the recorded values were encoded for, by RPC and type (record-fixtures.ts, schemaDigests). */
  schemas: Record<string, string>;
  steps: FixtureStep[];
}

// ---------------------------------------------------------------------------------------------------
// Fixed objects

export const SEC_FIXED = {
  channelA: 'ACME_5C1E0A7F3B2D4E6F8091A2B3C4D5E6F708192A3B4C5D6E7F',
  channelB: 'ACME_0B9A8C7D6E5F40312233445566778899AABBCCDDEEFF0011',
  /** A webhook channel: its URL is its secret. */
  hook: 'ACME_7E6D5C4B3A2918F7E6D5C4B3A2918F7E6D5C4B3A2918F7E6',
  hookUrl: 'https://hooks.acme.example/T0001/B0002/s3cr3t-t0k3n',
  /** The agent token `build-fleet`: the token is its key on the platform. */
  fleetToken: 'ACME_FLEET_0123456789ABCDEF0123456789ABCDEF0123',
  time: '2026-01-15T10:00:00.000Z',
  by: 'terraform@acme.example',
  roleArn: 'arn:cloud-a:iam::123456789012:role/sec-platform-audit',
};

export const VDB_FIXED = {
  account: '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5',
  cluster: 'c0ffee00-1234-4abc-8def-0123456789ab',
  otherCluster: 'c0ffee00-5678-4abc-8def-0123456789ab',
  reader: '3f6c1f0e-8a52-4d7b-9c1e-2b7a4d9e5f10',
  writer: '9a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
  created: '2026-01-15T10:00:00Z',
  /** The same, as the emulator stores times. */
  createdAt: '2026-01-15T10:00:00.000Z',
};

/** Re-keys a stored object to a fixed id (and fixed fields), as if the platform had made it so. */
function rekey<T extends object>(
  store: {
    get<U>(c: string, id: string): U | undefined;
    put(c: string, id: string, v: unknown): void;
    remove(c: string, id: string): boolean;
  },
  collection: string,
  from: string,
  to: string,
  fields: Partial<T>,
): void {
  const record = store.get<T>(collection, from)!;
  store.remove(collection, from);
  store.put(collection, to, { ...record, ...fields });
}

/** Two e-mail alert channels and a webhook channel with fixed GUIDs and times, and an agent token. */
export async function seedSec(emulator: SecEmulator): Promise<void> {
  const client = createSecClient({
    baseUrl: emulator.url,
    account: emulator.account,
    apiKey: emulator.apiKey,
    apiSecret: emulator.apiSecret,
    userAgent: 'fixtures',
  });
  try {
    for (const [guid, name, recipient] of [
      [SEC_FIXED.channelA, 'security-team', 'security@acme.example'],
      [SEC_FIXED.channelB, 'on-call', 'oncall@acme.example'],
    ] as const) {
      const made = await client.alertChannels.create({
        name,
        type: 'EmailUser',
        enabled: true,
        data: { channelProps: { recipients: [recipient] } },
      });
      rekey(emulator, 'AlertChannels', made.intgGuid, guid, {
        intgGuid: guid,
        createdOrUpdatedTime: SEC_FIXED.time,
        createdOrUpdatedBy: SEC_FIXED.by,
      });
    }
    // A CloudA account for the inventory to scan.
    await client.cloudAccounts.create({
      name: 'production account',
      type: 'CloudACfg',
      enabled: true,
      data: { crossAccountCredentials: { roleArn: SEC_FIXED.roleArn, externalId: 'sec-7f3c2a' } },
    });
    const fleet = await client.agentAccessTokens.create({
      tokenAlias: 'build-fleet',
      tokenEnabled: true,
      props: { description: 'CI agents', os: 'linux' },
    });
    rekey(emulator, 'AgentAccessTokens', fleet.accessToken, SEC_FIXED.fleetToken, {
      accessToken: SEC_FIXED.fleetToken,
      createdTime: SEC_FIXED.time,
      props: { description: 'CI agents', os: 'linux', createdTime: SEC_FIXED.time },
    });
    const hook = await client.alertChannels.create({
      name: 'siem-hook',
      type: 'Webhook',
      enabled: true,
      data: { webhookUrl: SEC_FIXED.hookUrl },
    });
    rekey(emulator, 'AlertChannels', hook.intgGuid, SEC_FIXED.hook, {
      intgGuid: SEC_FIXED.hook,
      createdOrUpdatedTime: SEC_FIXED.time,
      createdOrUpdatedBy: SEC_FIXED.by,
    });
  } finally {
    await client.close();
  }
}

/** Waits until a new cluster is healthy (before it is re-keyed, which ends its provisioning). */
async function healthy(emulator: VdbEmulator, id: string): Promise<void> {
  for (let waited = 0; ; waited += 10) {
    const phase = emulator.get<{ state?: { phase?: string } }>(VDB_COLLECTIONS.clusters, id)?.state?.phase;
    if (phase === 'CLUSTER_PHASE_HEALTHY') return;
    if (waited > 10_000) throw new Error(`seeded cluster ${id} is not healthy (${phase})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A seeded cluster with fixed times and the endpoint of its fixed id, so that a read of it gives the
 * same state in every run (the action fixtures record one).
 */
function pinCluster(emulator: VdbEmulator, id: string): void {
  const text = JSON.stringify(emulator.get(VDB_COLLECTIONS.clusters, id));
  const host = /https:\/\/([0-9a-f-]{36})\./.exec(text)?.[1];
  const pinned = text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, VDB_FIXED.createdAt)
    .replaceAll(host ?? id, id);
  emulator.put(VDB_COLLECTIONS.clusters, id, JSON.parse(pinned));
}

/** Two clusters and two keys of the first, with fixed ids. */
export async function seedVdb(emulator: VdbEmulator): Promise<void> {
  const api = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'fixtures' });
  try {
    const packageId = emulator.packageId('aws', 'small');
    for (const [id, name] of [
      [VDB_FIXED.cluster, 'search-prod'],
      [VDB_FIXED.otherCluster, 'search-staging'],
    ] as const) {
      const made = await api.clusters.create({
        accountId: emulator.accountId,
        name,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'eu-central-1',
        configuration: { numberOfNodes: 1, packageId },
      });
      await healthy(emulator, made.id);
      rekey(emulator, VDB_COLLECTIONS.clusters, made.id, id, { id });
      pinCluster(emulator, id);
    }
    const keys = [
      {
        id: VDB_FIXED.reader,
        name: 'ci reader',
        accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' as const } }],
      },
      {
        id: VDB_FIXED.writer,
        name: 'ci writer',
        accessRules: [
          {
            collectionAccess: {
              collectionName: 'docs',
              accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_WRITE' as const,
            },
          },
        ],
      },
    ];
    for (const k of keys) {
      const made = await api.databaseApiKeys.create({
        accountId: emulator.accountId,
        clusterId: VDB_FIXED.cluster,
        name: k.name,
        accessRules: k.accessRules,
      });
      rekey(emulator, VDB_COLLECTIONS.databaseApiKeys, made.id, k.id, {
        id: k.id,
        createdAt: VDB_FIXED.created,
        postfix: 'a1b2',
      });
    }
  } finally {
    api.close();
  }
}

/** The implied type of a resource type's identity. */
export async function identityTypeOf(provider: 'sec' | 'vdb', type: string): Promise<CtyType> {
  const def = await loadProviderDef(provider);
  return identityType(def.resources.find((r) => r.typeName === type)!.identity!);
}

/** The implied type of a resource type's schema. */
export async function resourceTypeOf(provider: 'sec' | 'vdb', type: string): Promise<CtyType> {
  const def = await loadProviderDef(provider);
  return impliedType(def.resources.find((r) => r.typeName === type)!.schema.block);
}
