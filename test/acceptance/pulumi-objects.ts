/**
 * What every Pulumi program of the suites makes, and what the emulator must then hold: one table per
 * provider, which the TypeScript program (pulumi.test.ts), the YAML one on the CLI
 * (pulumi-cli.test.ts), the Python one (pulumi-python.test.ts) and the Go one (pulumi-go.test.ts)
 * share, so that each language runs the same resources. A program names its objects
 * `<prefix>-<object>` with a prefix of its own (`pulumi`, `yaml`, `python`, `go`) and exports each
 * object's id under its resource name. Stage 1 creates everything; stage 2 changes one object in
 * place (`inPlace`) and one argument that replaces another (`replaced`).
 *
 * - sec: a chat channel whose webhook URL is a secret from config; an e-mail channel with a list of
 *   recipients (renamed at stage 2); a registry integration with a nested block and a set of nested
 *   objects, whose credentials switch from a role to an access key with a secret from config at stage
 *   2, which replaces it; an alert rule taking the e-mail channel's GUID.
 * - vdb: a cluster whose package id comes from a data source, with nested blocks three deep and a set
 *   of labels; a role with two permissions, given unsorted (its description changes at stage 2); a
 *   database API key on the cluster, whose key is a computed secret (renamed at stage 2, which
 *   replaces it). The programs export the role's permissions (`permissions`) as Pulumi gives them back.
 */
import { expect } from 'chai';
import type { EmulatorHandle, Provider } from './examples-workspace.js';
import { PROGRAM_SECRETS } from './pulumi-program.js';
import { expectSecretsEncrypted } from './pulumi-yaml.js';

/** A program's outputs: ids by resource name, `keySecret`, and the role's `permissions`. */
export type ProgramOutputs = Record<string, unknown>;

export interface ProgramObjects {
  readonly provider: Provider;
  /** The emulator collections the programs write to. */
  readonly collections: readonly string[];
  /** The secrets the programs read from the stack's config (the TypeScript program has them inline). */
  readonly secretConfig: Readonly<Record<string, string>>;
  /** After stage 1. */
  readonly created: (emulator: EmulatorHandle, outputs: ProgramOutputs, prefix: string) => void;
  /** The outputs naming the object updated in place and the one replaced at stage 2. */
  readonly inPlace: string;
  readonly replaced: string;
  /** After stage 2. */
  readonly updated: (emulator: EmulatorHandle, outputs: ProgramOutputs, prefix: string) => void;
  /** Plain texts of secrets that `pulumi stack export` must hold only encrypted. */
  readonly secrets: (outputs: ProgramOutputs) => string[];
}

const held = (emulator: EmulatorHandle, collection: string, id: unknown): any => {
  const object = emulator.get(collection, String(id));
  expect(object, `${collection} ${String(id)}`).to.not.equal(undefined);
  return object;
};

/** The role's permissions as a program exports them: values, or the objects Pulumi gives back. */
export const permissionValues = (outputs: ProgramOutputs): string[] =>
  ((outputs.permissions as unknown[]) ?? []).map((p) =>
    typeof p === 'string' ? p : String((p as { value: unknown }).value),
  );

export const PROGRAM_OBJECTS: Readonly<Record<Provider, ProgramObjects>> = {
  sec: {
    provider: 'sec',
    collections: ['AlertChannels', 'ContainerRegistries', 'AlertRules'],
    secretConfig: { chatWebhookUrl: PROGRAM_SECRETS.chatWebhookUrl, registrySecret: PROGRAM_SECRETS.registrySecret },
    created(emulator, ids, prefix) {
      const chat = held(emulator, 'AlertChannels', ids.chat);
      expect(chat.name).to.equal(`${prefix}-chat`);
      expect(chat.data?.webhookUrl).to.equal(PROGRAM_SECRETS.chatWebhookUrl);
      const email = held(emulator, 'AlertChannels', ids.email);
      expect(email.name).to.equal(`${prefix}-email`);
      expect(email.data?.channelProps?.recipients).to.deep.equal(['security@example.com', 'oncall@example.com']);
      const registry = held(emulator, 'ContainerRegistries', ids.registry);
      expect(registry.name).to.equal(`${prefix}-registry`);
      expect(registry.data?.crossAccountCredentials).to.deep.equal({
        roleArn: 'arn:cloud-a:iam::123456789012:role/sec-registry-reader',
        externalId: `${prefix}-external-id`,
      });
      expect(registry.data?.limitByTag).to.deep.equal(['prod-*']);
      expect(registry.data?.limitByLabel).to.deep.equal([{ team: 'payments' }]);
      const rule = held(emulator, 'AlertRules', ids.rule);
      expect(rule.filters?.name).to.equal(`${prefix}-rule`);
      expect(rule.intgGuidList).to.deep.equal([ids.email]);
    },
    inPlace: 'email',
    replaced: 'registry',
    updated(emulator, ids, prefix) {
      expect(held(emulator, 'AlertChannels', ids.email).name).to.equal(`${prefix}-email-renamed`);
      expect(held(emulator, 'ContainerRegistries', ids.registry).data?.accessKeyCredentials).to.deep.equal({
        accessKeyId: 'AKEXAMPLE0123456789',
        secretAccessKey: PROGRAM_SECRETS.registrySecret,
      });
    },
    secrets: () => [PROGRAM_SECRETS.chatWebhookUrl, PROGRAM_SECRETS.registrySecret],
  },
  vdb: {
    provider: 'vdb',
    collections: ['clusters', 'roles', 'databaseApiKeys'],
    secretConfig: {},
    created(emulator, ids, prefix) {
      const cluster = held(emulator, 'clusters', ids.cluster);
      expect(cluster.name).to.equal(`${prefix}-cluster`);
      expect(JSON.stringify(cluster)).to.include('search');
      const role = held(emulator, 'roles', ids.role);
      expect(role.name).to.equal(`${prefix}-role`);
      expect(role.description).to.equal('Create and restore backups');
      expect(JSON.stringify(role)).to.include('read:clusters').and.include('read:backups');
      // A set: Pulumi gives the permissions back in the set's order, whatever order the program used.
      expect(permissionValues(ids)).to.deep.equal(['read:backups', 'read:clusters']);
      expect(held(emulator, 'databaseApiKeys', ids.key).name).to.equal(`${prefix}-key`);
    },
    inPlace: 'role',
    replaced: 'key',
    updated(emulator, ids, prefix) {
      expect(held(emulator, 'roles', ids.role).description).to.equal('Create, list and restore backups');
      expect(held(emulator, 'databaseApiKeys', ids.key).name).to.equal(`${prefix}-key-renamed`);
    },
    secrets: (outputs) => [String(outputs.keySecret)],
  },
};

/** The ids the emulator holds in each collection the programs write to. */
export const heldIds = (objects: ProgramObjects, emulator: EmulatorHandle): Record<string, string[]> =>
  Object.fromEntries(objects.collections.map((name) => [name, emulator.ids(name).sort()]));

/** A program in one language as the shared stages drive it (programStages). */
export interface ProgramUnderTest {
  readonly objects: ProgramObjects;
  /** The prefix its objects' names start with. */
  readonly prefix: string;
  /** Runs the program's operation at a stage; the change summary and the stack's outputs. */
  run(op: 'up' | 'preview' | 'refresh' | 'destroy', stage?: number): Promise<{ summary: any; outputs: ProgramOutputs }>;
  /** `pulumi stack export`'s output. */
  exported(): Promise<string>;
  /** The emulator, once the suite's `before` has started it. */
  emulator(): EmulatorHandle;
  /** Ids per collection, as the emulator held them before the program ran. */
  initial(): Record<string, string[]>;
}

/**
 * The stages every language's program goes through, as tests of the calling suite: up (the emulator
 * holds the objects), preview and refresh with no changes, an update in place and a replacement, a
 * destroy that leaves the emulator as it was; secrets only encrypted in the stack's export.
 */
export function programStages(program: ProgramUnderTest): void {
  const { objects, prefix } = program;
  let ids: ProgramOutputs;

  it("creates the program's resources, as the emulator confirms", async () => {
    const { summary, outputs } = await program.run('up');
    expect(summary.create).to.be.greaterThan(0);
    ids = outputs;
    objects.created(program.emulator(), ids, prefix);
  });

  it('previews and refreshes with no changes, secrets encrypted in `pulumi stack export`', async () => {
    await program.run('preview');
    await program.run('refresh');
    expectSecretsEncrypted(await program.exported(), objects.secrets(ids));
  });

  it('updates one resource in place and replaces another, then previews with no changes', async () => {
    const { summary, outputs } = await program.run('up', 2);
    expect(summary).to.include({ update: 1, replace: 1 });
    expect(outputs[objects.inPlace], 'updated in place').to.equal(ids[objects.inPlace]);
    expect(outputs[objects.replaced], 'replaced').to.not.equal(ids[objects.replaced]);
    objects.updated(program.emulator(), outputs, prefix);
    ids = outputs;
    await program.run('preview', 2);
    expectSecretsEncrypted(await program.exported(), objects.secrets(ids));
  });

  it('destroys everything, leaving the emulator as it was', async () => {
    const { summary } = await program.run('destroy', 2);
    expect(summary.delete).to.be.greaterThan(0);
    expect(heldIds(objects, program.emulator())).to.deep.equal(program.initial());
    console.log(
      `      (${objects.provider}: ${Object.keys(ids).length} outputs; ${summary.delete} resources destroyed)`,
    );
  });
}
