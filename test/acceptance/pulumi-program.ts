/**
 * One Pulumi operation on a TypeScript program that uses the SDK generated from the bridge's schema
 * of our provider, run by Pulumi's Automation API (an inline program: @pulumi/pulumi serves the
 * language runtime in this process, so Pulumi's Node.js language host, which the Go module proxy
 * does not serve, is not needed). A child process of pulumi.test.ts per operation, so each run
 * starts with a fresh Pulumi runtime:
 *
 *   KEEL_PULUMI_RUN='{"op":"up",...}' node dist/test/acceptance/pulumi-program.js
 *
 * Prints one JSON line: the operation's summary and the stack's outputs.
 */
import { createRequire } from 'node:module';
import { LocalWorkspace, PulumiCommand } from '@pulumi/pulumi/automation/index.js';

export interface PulumiRun {
  readonly op: 'up' | 'preview' | 'refresh' | 'destroy' | 'outputs';
  readonly provider: keyof typeof programs;
  /** The generated SDK, compiled (its bin/index.js). */
  readonly sdk: string;
  /** The folder holding the `pulumi` executable. */
  readonly pulumiBin: string;
  readonly workDir: string;
  readonly stage: number;
  /** Resources to adopt by the `import` resource option: their ids by resource name. */
  readonly imports?: Record<string, string>;
  readonly env: Record<string, string>;
}

/** The secrets the programs send, which the tests look for in exported state. */
export const PROGRAM_SECRETS = {
  chatWebhookUrl: 'https://chat.example/services/T0000/B0000/pulumi-secret-webhook',
  registrySecret: 'pulumi-registry-secret-access-key',
} as const;

/**
 * The programs, by provider, making the objects of pulumi-objects.ts (named `pulumi-<object>`): `stage`
 * 2 changes one argument in place and one that replaces.
 */
const programs = {
  sec: (sec: any, stage: number, imports: Record<string, string>) => {
    // A secret argument at the top level.
    const chat = new sec.AlertChannelChat(
      'chat',
      { name: 'pulumi-chat', webhookUrl: PROGRAM_SECRETS.chatWebhookUrl },
      { import: imports.chat },
    );
    // A list of strings; its name changes in place at stage 2.
    const email = new sec.AlertChannelEmail('email', {
      name: stage === 1 ? 'pulumi-email' : 'pulumi-email-renamed',
      recipients: ['security@example.com', 'oncall@example.com'],
    });
    // A nested block, a list of nested objects and a secret nested argument; switching the
    // credentials from a role to an access key replaces the integration (stage 2).
    const registry = new sec.IntegrationRegistryA('registry', {
      name: 'pulumi-registry',
      registryDomain: '123456789012.registry-a.us-west-2.example.com',
      credentials:
        stage === 1
          ? { roleArn: 'arn:cloud-a:iam::123456789012:role/sec-registry-reader', externalId: 'pulumi-external-id' }
          : { accessKeyId: 'AKEXAMPLE0123456789', secretAccessKey: PROGRAM_SECRETS.registrySecret },
      limitByTags: ['prod-*'],
      limitNumImgs: 10,
      limitByLabels: [{ key: 'team', value: 'payments' }],
    });
    // A computed value of one resource as the argument of another.
    const rule = new sec.AlertRule('rule', {
      name: 'pulumi-rule',
      severities: ['Critical', 'High'],
      alertChannels: [email.intgGuid],
    });
    return { chat: chat.intgGuid, email: email.intgGuid, registry: registry.intgGuid, rule: rule.guid };
  },
  vdb: (vdb: any, stage: number, imports: Record<string, string>) => {
    // A data source whose result feeds an argument.
    const packages = vdb.getBookingPackagesOutput({ cloudProvider: 'aws', cloudRegion: 'eu-central-1' });
    const packageId = packages.packages.apply((list: { id: string; name: string }[]) => {
      const small = list.find((p) => p.name === 'small');
      if (!small) throw new Error('no "small" booking package');
      return small.id;
    });
    // Nested blocks three deep (configuration, node configuration, resource configurations) and a
    // list of nested objects (labels).
    const cluster = new vdb.AccountsCluster('cluster', {
      name: 'pulumi-cluster',
      cloudProvider: 'aws',
      cloudRegion: 'eu-central-1',
      labels: [{ key: 'team', value: 'search' }],
      configuration: {
        numberOfNodes: 1,
        allowedIpSourceRanges: ['10.0.0.0/8'],
        nodeConfiguration: {
          packageId,
          resourceConfigurations: [{ amount: 20, resourceType: 'disk', resourceUnit: 'Gi' }],
        },
        databaseConfiguration: { collection: { replicationFactor: 1 } },
      },
    });
    // Its description changes in place at stage 2.
    const role = new vdb.AccountsRole(
      'role',
      {
        name: 'pulumi-role',
        description: stage === 1 ? 'Create and restore backups' : 'Create, list and restore backups',
        permissions: [{ value: 'read:clusters' }, { value: 'read:backups' }],
      },
      { import: imports.role },
    );
    // A computed secret (the key); renaming it replaces the key (stage 2).
    const key = new vdb.AccountsDatabaseApiKeyV2('key', {
      clusterId: cluster.id,
      name: stage === 1 ? 'pulumi-key' : 'pulumi-key-renamed',
      collectionAccessRules: [
        { collectionName: 'documents', accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' },
      ],
    });
    const permissions = role.permissions.apply((list: { value: string }[]) => list.map((p) => p.value));
    return { cluster: cluster.id, role: role.id, permissions, key: key.id, keySecret: key.key };
  },
};

async function main(): Promise<void> {
  const run = JSON.parse(process.env.KEEL_PULUMI_RUN ?? '') as PulumiRun;
  const require = createRequire(import.meta.url);
  const pulumiCommand = await PulumiCommand.get({ root: run.pulumiBin.replace(/\/bin$/, ''), skipVersionCheck: true });
  const projectName = `keel-${run.provider}`;
  const stack = await LocalWorkspace.createOrSelectStack(
    {
      stackName: 'test',
      projectName,
      program: async () => programs[run.provider](require(run.sdk), run.stage, run.imports ?? {}),
    },
    {
      pulumiCommand,
      workDir: run.workDir,
      projectSettings: { name: projectName, runtime: 'nodejs', backend: { url: `file://${run.workDir}/state` } },
      envVars: run.env,
    },
  );
  const log = (s: string) => process.stderr.write(s);
  let summary: unknown;
  if (run.op === 'up') summary = (await stack.up({ onOutput: log })).summary;
  else if (run.op === 'preview')
    summary = (await stack.preview({ expectNoChanges: true, diff: true, onOutput: log })).changeSummary;
  else if (run.op === 'refresh') summary = (await stack.refresh({ expectNoChanges: true, onOutput: log })).summary;
  else if (run.op === 'destroy') summary = (await stack.destroy({ onOutput: log })).summary;
  const outputs = Object.fromEntries(Object.entries(await stack.outputs()).map(([k, v]) => [k, v.value]));
  process.stdout.write(`${JSON.stringify({ summary, outputs })}\n`);
}

// The test imports PROGRAM_SECRETS from here; only the child process it starts runs a program.
if (process.env.KEEL_PULUMI_RUN !== undefined)
  main().catch((err: unknown) => {
    process.stderr.write(`pulumi-program: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
