/**
 * The floor of the `scale` benchmark: the API calls Terraform makes through the provider for one
 * phase, made directly with our clients, `parallelism` at a time, in dependency order. It runs as
 * its own process (as the provider does), so it does not share an event loop with the emulator:
 *   node dist/scripts/bench/scale-floor.js <job.json>   → one JSON line (FloorResult) on stdout.
 *
 * Like Terraform, a destroy first refreshes everything (one client, as the planning provider
 * process) and then deletes (a second client, as the applying one), so each side fetches the same
 * tokens. A refresh reads as the provider does: a type it reads by listing, of which the state holds
 * two or more, from one listing.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createSecClient, type SecClient } from '../../src/clients/sec/index.js';
import { createVdbClient } from '../../src/clients/vdb/client.js';
import type { VdbClient } from '../../src/clients/vdb/api.js';
import { goDurationToProto } from '../../packages/framework/src/wire/go-duration.js';
import { isApiError } from '../../packages/framework/src/wire/api-error.js';
import { REPORT_NOTIFICATION_KEYS, type ReportNotifications } from '../../src/clients/sec/report-rules.js';
import type {
  AttributeValue,
  Body,
  EmulatorConnection,
  Reference,
  WorkloadObject,
} from '../../src/workload/mass-config.js';

export type Phase = 'apply' | 'refresh' | 'destroy';

/** What a created object is known by afterwards. */
export interface Handle {
  readonly id: string;
  readonly clusterId?: string;
}

export interface FloorJob {
  readonly connection: EmulatorConnection;
  readonly objects: readonly WorkloadObject[];
  readonly parallelism: number;
  readonly phase: Phase;
  /** From the apply phase; needed by the others. */
  readonly handles?: Readonly<Record<string, Handle>>;
}

export interface FloorResult {
  /** From the first call to the last answer. */
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssBytes: number;
  readonly handles: Record<string, Handle>;
}

/** The calls behind one resource type's create, read and delete. */
interface Operations<C> {
  create(body: Body, client: C, resolve: (r: Reference) => Handle): Promise<Handle>;
  read(handle: Handle, body: Body, client: C): Promise<unknown>;
  delete(handle: Handle, body: Body, client: C): Promise<unknown>;
  /**
   * The listing a refresh reads the type's objects from, as the provider does
   * (docs/decisions.md, "Reads by listing"); absent for a type read alone.
   */
  list?(client: C): Promise<unknown>;
}

const str = (v: AttributeValue | readonly Body[] | undefined): string => String(v);
const strings = (v: AttributeValue | readonly Body[] | undefined): string[] => (v as string[]).map(String);
const block = (v: AttributeValue | readonly Body[] | undefined): Body => (v as readonly Body[])[0]!;

function alertChannel(
  type: 'EmailUser' | 'Webhook',
  data: (body: Body) => Record<string, unknown>,
): Operations<SecClient> {
  return {
    async create(body, sec) {
      // The provider tests every new channel (test_integration defaults to true).
      const created = await sec.alertChannels.create({
        name: str(body.name),
        type,
        enabled: true,
        data: data(body),
      } as never);
      await sec.alertChannels.test(created.intgGuid);
      return { id: created.intgGuid };
    },
    read: (h, _b, sec) => sec.alertChannels.get(h.id),
    list: (sec) => sec.alertChannels.list(),
    delete: (h, _b, sec) => sec.alertChannels.delete(h.id),
  };
}

const SEC: Record<string, Operations<SecClient>> = {
  sec_alert_channel_email: alertChannel('EmailUser', (b) => ({ channelProps: { recipients: strings(b.recipients) } })),
  sec_alert_channel_webhook: alertChannel('Webhook', (b) => ({ webhookUrl: str(b.webhook_url) })),
  sec_resource_group: {
    async create(b, sec) {
      const group = block(b.group);
      const filter = block(group.filter);
      const created = await sec.resourceGroups.create({
        name: str(b.name),
        resourceType: str(b.type),
        description: str(b.description),
        enabled: true,
        query: {
          filters: {
            [str(filter.filter_name)]: {
              field: str(filter.field),
              operation: str(filter.operation),
              values: strings(filter.value),
            },
          },
          expression: { operator: str(group.operator), children: [{ filterName: str(filter.filter_name) }] },
        },
      });
      return { id: created.resourceGroupGuid };
    },
    read: (h, _b, sec) => sec.resourceGroups.get(h.id),
    list: (sec) => sec.resourceGroups.list(),
    delete: (h, _b, sec) => sec.resourceGroups.delete(h.id),
  },
  sec_team_member: {
    async create(b, sec) {
      const props = {
        firstName: str(b.first_name),
        lastName: str(b.last_name),
        company: str(b.company),
        accountAdmin: false,
      };
      return { id: (await sec.teamMembers.create({ userName: str(b.email), userEnabled: true, props })).userGuid };
    },
    read: (h, _b, sec) => sec.teamMembers.get(h.id),
    delete: (h, _b, sec) => sec.teamMembers.delete(h.id),
  },
  sec_agent_access_token: {
    async create(b, sec) {
      const created = await sec.agentAccessTokens.create({
        tokenAlias: str(b.name),
        tokenEnabled: true,
        props: { description: str(b.description), os: str(b.os) },
      });
      return { id: created.accessToken };
    },
    read: (h, _b, sec) => sec.agentAccessTokens.get(h.id),
    // Tokens cannot be deleted: disabled and renamed, as the provider does.
    delete: (h, b, sec) =>
      sec.agentAccessTokens.update(h.id, { tokenAlias: `${str(b.name)}-floor-deleted`, tokenEnabled: false }),
  },
  sec_vulnerability_exception_host: {
    async create(b, sec) {
      const created = await sec.vulnerabilityExceptions.create({
        exceptionName: str(b.name),
        exceptionType: 'Host',
        exceptionReason: str(b.reason),
        state: true,
        description: '',
        vulnerabilityCriteria: { cve: [], packages: [], severity: strings(block(b.vulnerability_criteria).severities) },
        resourceScope: {
          hostname: strings(block(b.resource_scope).hostnames),
          externalIp: [],
          clusterName: [],
          namespace: [],
        },
      });
      return { id: created.exceptionGuid };
    },
    read: (h, _b, sec) => sec.vulnerabilityExceptions.get(h.id),
    list: (sec) => sec.vulnerabilityExceptions.list(),
    delete: (h, _b, sec) => sec.vulnerabilityExceptions.delete(h.id),
  },
  sec_report_rule: {
    async create(b, sec, resolve) {
      const flags = Object.fromEntries(REPORT_NOTIFICATION_KEYS.map((k) => [k, false])) as ReportNotifications;
      flags.trendReport = b.weekly_snapshot === true;
      const channels = (b.email_alert_channels as readonly Reference[]).map((r) => resolve(r).id);
      const created = await sec.reportRules.create({
        intgGuidList: channels,
        filters: {
          name: str(b.name),
          description: '',
          enabled: true,
          severity: strings(b.severities) as never,
          resourceGroups: [],
        },
        reportNotificationTypes: flags,
      });
      return { id: created.mcGuid };
    },
    read: (h, _b, sec) => sec.reportRules.get(h.id),
    list: (sec) => sec.reportRules.list(),
    delete: (h, _b, sec) => sec.reportRules.delete(h.id),
  },
};

/** Polls like the provider's waits: at once, then after 500 ms growing by half, up to 10 s. */
async function pollUntil(check: () => Promise<boolean>): Promise<void> {
  for (let interval = 500; !(await check()); interval = Math.min(10_000, Math.ceil(interval * 1.5))) {
    await new Promise((r) => setTimeout(r, interval));
  }
}

const ignoringNotFound = (call: Promise<unknown>) =>
  call.catch((err: unknown) => (isApiError(err, 'not_found') ? undefined : Promise.reject(err)));

function vdbOperations(accountId: string): Record<string, Operations<VdbClient>> {
  return {
    vdb_accounts_role: {
      async create(b, vdb) {
        const permissions = (b.permissions as readonly Body[]).map((p) => str(p.value));
        return {
          id: (await vdb.iam.createRole({ accountId, name: str(b.name), description: str(b.description), permissions }))
            .id,
        };
      },
      read: (h, _b, vdb) => vdb.iam.getRole({ accountId, roleId: h.id }),
      list: (vdb) => vdb.iam.listRoles({ accountId }),
      delete: (h, _b, vdb) => ignoringNotFound(vdb.iam.deleteRole({ accountId, roleId: h.id })),
    },
    vdb_accounts_cluster: {
      async create(b, vdb) {
        const c = block(b.configuration);
        const none: never[] = [];
        const created = await vdb.clusters.create({
          accountId,
          name: str(b.name),
          cloudProviderId: str(b.cloud_provider),
          cloudProviderRegionId: str(b.cloud_region),
          labels: none,
          configuration: {
            numberOfNodes: Number(c.number_of_nodes),
            packageId: str(block(c.node_configuration).package_id),
            nodeSelector: none,
            tolerations: none,
            annotations: none,
            allowedIpSourceRanges: none,
            serviceAnnotations: none,
            podLabels: none,
            topologySpreadConstraints: none,
          },
        });
        const request = { accountId, clusterId: created.id };
        await pollUntil(async () => {
          const c = await vdb.clusters.get(request);
          return c.state?.phase === 'CLUSTER_PHASE_HEALTHY' && Boolean(c.state.endpoint?.url);
        });
        return { id: created.id };
      },
      read: (h, _b, vdb) => vdb.clusters.get({ accountId, clusterId: h.id }),
      list: (vdb) => vdb.clusters.list({ accountId }),
      async delete(h, _b, vdb) {
        const request = { accountId, clusterId: h.id };
        await ignoringNotFound(vdb.clusters.delete({ ...request, deleteBackups: true }));
        await pollUntil(() =>
          vdb.clusters.get(request).then(
            () => false,
            (err: unknown) => (isApiError(err, 'not_found') ? true : Promise.reject(err)),
          ),
        );
      },
    },
    vdb_accounts_database_api_key_v2: {
      async create(b, vdb, resolve) {
        const clusterId = resolve(b.cluster_id as Reference).id;
        const accessType = str(block(b.global_access_rule).access_type);
        const created = await vdb.databaseApiKeys.create({
          accountId,
          clusterId,
          name: str(b.name),
          accessRules: [{ globalAccess: { accessType } as never }],
        });
        return { id: created.id, clusterId };
      },
      read: (h, _b, vdb) => vdb.databaseApiKeys.list({ accountId, clusterId: h.clusterId! }),
      delete: (h, _b, vdb) =>
        ignoringNotFound(vdb.databaseApiKeys.delete({ accountId, clusterId: h.clusterId!, databaseApiKeyId: h.id })),
    },
    vdb_accounts_backup_schedule: {
      async create(b, vdb, resolve) {
        const clusterId = resolve(b.cluster_id as Reference).id;
        const created = await vdb.backupSchedules.create({
          accountId,
          clusterId,
          schedule: str(b.cron_expression),
          retentionPeriod: goDurationToProto(str(b.retention_period)),
        });
        return { id: created.id, clusterId };
      },
      read: (h, _b, vdb) => vdb.backupSchedules.get({ accountId, clusterId: h.clusterId!, backupScheduleId: h.id }),
      list: (vdb) => vdb.backupSchedules.list({ accountId }),
      delete: (h, _b, vdb) =>
        ignoringNotFound(vdb.backupSchedules.delete({ accountId, backupScheduleId: h.id, deleteBackups: true })),
    },
  };
}

/** A fresh client, as each provider process Terraform starts has its own. */
function clientFor(connection: EmulatorConnection): {
  client: unknown;
  operations: Record<string, Operations<any>>;
  close(): Promise<void>;
} {
  const userAgent = 'keel-scale-floor';
  if (connection.provider === 'sec') {
    const client = createSecClient({
      baseUrl: connection.url,
      account: connection.account,
      apiKey: connection.apiKey,
      apiSecret: connection.apiSecret,
      userAgent,
    });
    return { client, operations: SEC, close: () => client.close() };
  }
  const client = createVdbClient({ apiUrl: connection.url, apiKey: connection.apiKey, userAgent });
  return { client, operations: vdbOperations(connection.accountId), close: async () => client.close() };
}

/**
 * Runs `op` over every object, at most `limit` at a time (first come, first served), each only
 * after the objects `after(o)` names are done.
 */
async function runInOrder(
  objects: readonly WorkloadObject[],
  limit: number,
  after: (o: WorkloadObject) => string[],
  op: (o: WorkloadObject) => Promise<void>,
): Promise<void> {
  const done = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  for (const o of objects) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    done.set(o.address, { promise, resolve });
  }
  let running = 0;
  const queue: (() => void)[] = [];
  const slot = (): Promise<void> => {
    if (running >= limit) return new Promise<void>((r) => queue.push(r));
    running++;
    return Promise.resolve();
  };
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  await Promise.all(
    objects.map(async (o) => {
      await Promise.all(after(o).map((a) => done.get(a)!.promise));
      await slot();
      try {
        await op(o);
      } finally {
        release();
        done.get(o.address)!.resolve();
      }
    }),
  );
}

export async function runFloorPhase(job: FloorJob): Promise<FloorResult> {
  const handles: Record<string, Handle> = { ...(job.handles ?? {}) };
  const referenced = (o: WorkloadObject) => Object.values(o.references).map((r) => r.address);
  const dependents = new Map<string, string[]>();
  for (const o of job.objects)
    for (const target of referenced(o)) dependents.set(target, [...(dependents.get(target) ?? []), o.address]);

  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const refresh = async () => {
    const c = clientFor(job.connection);
    // A type that lists, of which the state holds two or more (its notes say so): one listing reads them all.
    const held = new Map<string, number>();
    for (const o of job.objects) held.set(o.type, (held.get(o.type) ?? 0) + 1);
    const listings = new Map<string, Promise<unknown>>();
    await runInOrder(
      job.objects,
      job.parallelism,
      () => [],
      async (o) => {
        const ops = c.operations[o.type]!;
        if (!ops.list || held.get(o.type)! < 2)
          return ops.read(handles[o.address]!, o.body, c.client).then(() => undefined);
        if (!listings.has(o.type)) listings.set(o.type, ops.list(c.client));
        await listings.get(o.type);
      },
    );
    await c.close();
  };
  if (job.phase === 'apply') {
    const c = clientFor(job.connection);
    const resolve = (r: Reference) => handles[r.address]!;
    await runInOrder(job.objects, job.parallelism, referenced, async (o) => {
      handles[o.address] = await c.operations[o.type]!.create(o.body, c.client, resolve);
    });
    await c.close();
  } else if (job.phase === 'refresh') {
    await refresh();
  } else {
    await refresh();
    const c = clientFor(job.connection);
    await runInOrder(
      job.objects,
      job.parallelism,
      (o) => dependents.get(o.address) ?? [],
      (o) => c.operations[o.type]!.delete(handles[o.address]!, o.body, c.client).then(() => undefined),
    );
    await c.close();
  }
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    handles,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as FloorJob;
  const result = await runFloorPhase(job);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // Keep-alive sockets and channels are closed; exit anyway in case a timer lingers.
  process.exit(0);
}
