/**
 * A Pulumi user's whole path on the real CLI, for each provider: Pulumi 3.274.1, Pulumi YAML's
 * language host and the bridge's dynamic provider (scripts/clients.mjs), a local file backend and
 * passphrase secrets, against the emulator.
 *
 * - `pulumi package add terraform-provider <our executable>` writes the package declaration and links
 *   the package into Pulumi.yaml.
 * - A YAML program making the objects of pulumi-objects.ts, which the TypeScript, Python and Go
 *   programs make too (a secret from config, a list, nested blocks, a function's result and one
 *   resource's output as another's input): `pulumi up`, `preview --expect-no-changes`, `refresh
 *   --expect-no-changes`, an update in place and a replacement, secrets encrypted in `pulumi stack
 *   export`, and `pulumi destroy` leaving the emulator as it was.
 * - `pulumi import` of every importable type: one object of each, made outside Pulumi (by the
 *   examples, applied by Terraform 1.15.5), adopted by one `pulumi import --file`; the code Pulumi
 *   prints goes into the program as Pulumi says, and `pulumi preview --expect-no-changes` holds. The
 *   types whose secret the platform never returns get it from config, as their import notes say, and
 *   one `pulumi up` sends it.
 *
 * The TypeScript program through the Automation API is pulumi.test.ts.
 */
import { expect } from 'chai';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadProviderDef } from '../../src/providers/describe.js';
import { computeTokens } from '../../packages/framework/src/schema/pulumi/naming.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import {
  ExamplesWorkspace,
  fill,
  loadCases,
  startEmulator,
  type EmulatorHandle,
  type Provider,
} from './examples-workspace.js';
import { PROGRAM_OBJECTS } from './pulumi-objects.js';
import { BRIDGE_VERSION, type Outputs, type Resources, type YamlProject, yamlProject } from './pulumi-yaml.js';
import { MAIN_TERRAFORM_CLI } from './real-clients.js';
import { REPO_ROOT } from './terraform.js';
import { failOnProblems } from '../support/type-tables.js';

/** The YAML program making a provider's objects of pulumi-objects.ts, named `yaml-<object>`. */
interface YamlCase {
  readonly provider: Provider;
  /** The program's `variables`, `resources` and `outputs` at a stage (2 updates one, replaces one). */
  readonly program: (stage: number) => { variables?: Resources; resources: Resources; outputs: Outputs };
  /** A resource of the program adopted again by `pulumi import`; `idInput` the input repeating its id. */
  readonly imported: { name: string; type: string; collection: string; idInput?: string };
}

const PREFIX = 'yaml';

const CASES: YamlCase[] = [
  {
    provider: 'sec',
    program: (stage) => ({
      resources: {
        chat: { type: 'sec:AlertChannelChat', properties: { name: 'yaml-chat', webhookUrl: '${chatWebhookUrl}' } },
        email: {
          type: 'sec:AlertChannelEmail',
          properties: {
            name: stage === 1 ? 'yaml-email' : 'yaml-email-renamed',
            recipients: ['security@example.com', 'oncall@example.com'],
          },
        },
        registry: {
          type: 'sec:IntegrationRegistryA',
          properties: {
            name: 'yaml-registry',
            registryDomain: '123456789012.registry-a.us-west-2.example.com',
            credentials:
              stage === 1
                ? { roleArn: 'arn:cloud-a:iam::123456789012:role/sec-registry-reader', externalId: 'yaml-external-id' }
                : { accessKeyId: 'AKEXAMPLE0123456789', secretAccessKey: '${registrySecret}' },
            limitByTags: ['prod-*'],
            limitByLabels: [{ key: 'team', value: 'payments' }],
          },
        },
        rule: {
          type: 'sec:AlertRule',
          properties: { name: 'yaml-rule', severities: ['Critical', 'High'], alertChannels: ['${email.intgGuid}'] },
        },
      },
      outputs: {
        chat: '${chat.intgGuid}',
        email: '${email.intgGuid}',
        registry: '${registry.intgGuid}',
        rule: '${rule.guid}',
      },
    }),
    // No resource depends on it, and it has no secret to fill in (the import of every type has those).
    imported: { name: 'rule', type: 'sec:index/alertRule:AlertRule', collection: 'AlertRules', idInput: 'alertRuleId' },
  },
  {
    provider: 'vdb',
    program: (stage) => ({
      variables: {
        // The catalog lists `free` first, then `small`.
        packages: {
          'fn::invoke': {
            function: 'vdb:getBookingPackages',
            arguments: { cloudProvider: 'aws', cloudRegion: 'eu-central-1' },
            return: 'packages',
          },
        },
      },
      resources: {
        cluster: {
          type: 'vdb:AccountsCluster',
          properties: {
            name: 'yaml-cluster',
            cloudProvider: 'aws',
            cloudRegion: 'eu-central-1',
            labels: [{ key: 'team', value: 'search' }],
            configuration: {
              numberOfNodes: 1,
              allowedIpSourceRanges: ['10.0.0.0/8'],
              nodeConfiguration: {
                packageId: '${packages[1].id}',
                resourceConfigurations: [{ amount: 20, resourceType: 'disk', resourceUnit: 'Gi' }],
              },
              databaseConfiguration: { collection: { replicationFactor: 1 } },
            },
          },
        },
        role: {
          type: 'vdb:AccountsRole',
          properties: {
            name: 'yaml-role',
            description: stage === 1 ? 'Create and restore backups' : 'Create, list and restore backups',
            permissions: [{ value: 'read:clusters' }, { value: 'read:backups' }],
          },
        },
        key: {
          type: 'vdb:AccountsDatabaseApiKeyV2',
          properties: {
            clusterId: '${cluster.id}',
            name: stage === 1 ? 'yaml-key' : 'yaml-key-renamed',
            collectionAccessRules: [
              { collectionName: 'documents', accessType: 'COLLECTION_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' },
            ],
          },
        },
      },
      outputs: {
        cluster: '${cluster.id}',
        role: '${role.id}',
        permissions: '${role.permissions}',
        key: '${key.id}',
        keySecret: '${key.key}',
      },
    }),
    imported: { name: 'role', type: 'vdb:index/accountsRole:AccountsRole', collection: 'roles' },
  },
];

const executableOf = (provider: Provider) => join(REPO_ROOT, 'bin', `terraform-provider-${provider}`);

for (const c of CASES)
  describe(`acceptance: Pulumi's CLI with a YAML program, ${c.provider}`, function () {
    this.timeout(600_000);
    let emulator: EmulatorHandle;
    let project: YamlProject;
    let initial: Record<string, string[]>;
    let ids: Outputs;
    const objects = PROGRAM_OBJECTS[c.provider];
    const snapshot = () => Object.fromEntries(objects.collections.map((name) => [name, emulator.ids(name).sort()]));
    const config = Object.fromEntries(
      Object.keys(objects.secretConfig).map((k) => [k, { type: 'string', secret: true }]),
    );
    const up = async (stage: number) => {
      project.writeProgram(c.program(stage), config);
      await project.run(['up', '--yes', '--stack', 'test']);
      return project.outputs();
    };

    before(async function () {
      emulator = await startEmulator[c.provider]();
      initial = snapshot();
      project = await yamlProject(this, c.provider, emulator.env);
    });

    after(async () => {
      await emulator?.close();
      project?.dispose();
    });

    it('`pulumi package add` writes the package declaration and links the package into Pulumi.yaml', async () => {
      const r = await project.run(['package', 'add', 'terraform-provider', executableOf(c.provider)]);
      expect(`${r.stdout}${r.stderr}`).to.include(`Added package ${c.provider}`);
      expect(project.program().packages).to.deep.equal({
        [c.provider]: {
          source: 'terraform-provider',
          version: BRIDGE_VERSION.slice(1),
          parameters: [executableOf(c.provider)],
        },
      });
      // The bridge gives a local executable no version (the protocol carries none): 0.0.0.
      expect(packageDeclaration(project, c.provider).parameterization).to.include({
        name: c.provider,
        version: '0.0.0',
      });
    });

    it("`pulumi up` creates the program's resources, as the emulator confirms", async () => {
      for (const [key, value] of Object.entries(objects.secretConfig))
        await project.run(['config', 'set', '--secret', key, value, '--stack', 'test']);
      ids = await up(1);
      objects.created(emulator, ids, PREFIX);
    });

    it('previews and refreshes with no changes, secrets encrypted in `pulumi stack export`', async () => {
      await project.run(['preview', '--expect-no-changes', '--stack', 'test']);
      await project.run(['refresh', '--yes', '--expect-no-changes', '--stack', 'test']);
      await project.expectSecretsEncrypted(objects.secrets(ids));
    });

    it('updates one resource in place and replaces another, then previews with no changes', async () => {
      project.writeProgram(c.program(2), config);
      const preview = JSON.parse((await project.run(['preview', '--json', '--stack', 'test'])).stdout);
      expect(preview.changeSummary).to.include({ update: 1, replace: 1 });
      const outputs = await up(2);
      expect(outputs[objects.inPlace], 'updated in place').to.equal(ids[objects.inPlace]);
      expect(outputs[objects.replaced], 'replaced').to.not.equal(ids[objects.replaced]);
      objects.updated(emulator, outputs, PREFIX);
      ids = outputs;
      await project.run(['preview', '--expect-no-changes', '--stack', 'test']);
      await project.expectSecretsEncrypted(objects.secrets(ids));
    });

    it('`pulumi import` adopts one of its objects again; the code it prints, in place of the program’s, previews with no changes', async () => {
      const { name, type, collection, idInput } = c.imported;
      await project.run(['state', 'delete', `urn:pulumi:test::keel-${c.provider}::${type}::${name}`, '--yes']);
      const held = emulator.ids(collection).sort();
      const codeFile = join(project.dir, `${name}.yaml`);
      const args = ['import', type, name, ids[name]!, '--out', codeFile, '--protect=false', '--yes', '--stack', 'test'];
      const imported = await project.run(args);
      const problems = `${imported.stdout}${imported.stderr}`
        .split('\n')
        .filter((line) => /has a problem|failed to validate/.test(line));
      expect(problems.join('\n'), 'no problem with the imported inputs').to.equal('');
      expect(emulator.ids(collection).sort(), 'nothing created or deleted').to.deep.equal(held);
      const code = (parse(readFileSync(codeFile, 'utf8')) as { resources: Record<string, { properties: Resources }> })
        .resources[name]!;
      // Where Pulumi shows the platform's `id` as an input, the printed code repeats it.
      if (idInput) expect(code.properties[idInput]).to.equal(ids[name]);
      const program = c.program(2);
      project.writeProgram({ ...program, resources: { ...program.resources, [name]: code } }, config);
      await project.run(['preview', '--expect-no-changes', '--stack', 'test']);
      project.writeProgram(program, config);
    });

    it('`pulumi destroy` leaves the emulator as it was', async () => {
      await project.run(['destroy', '--yes', '--stack', 'test']);
      expect(snapshot()).to.deep.equal(initial);
    });
  });

/** Pulumi's warning for an imported input our validation finds missing: resource, argument, value path. */
const LACKING =
  /resource '([^']+)' has a problem: Missing configuration for required argument\. The argument "(\w+)" is required[^\n]*?Examine values at '([^']+)'/g;

/** The names of every sensitive argument, at any depth, of any resource type. */
function sensitiveArguments(def: { resources: readonly { schema: { fields: Fields } }[] }): Set<string> {
  const names = new Set<string>();
  const walk = (fields: Fields) => {
    for (const [name, d] of Object.entries(fields)) {
      if (d.kind === 'block') walk(d.fields);
      else if (d.options.sensitive) names.add(name);
    }
  };
  for (const r of def.resources) walk(r.schema.fields);
  return names;
}

/** The first non-null value of an attribute named `name`, at any depth of a state's values. */
function firstValueOf(values: unknown, name: string): unknown {
  if (Array.isArray(values)) {
    for (const e of values) {
      const found = firstValueOf(e, name);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (values === null || typeof values !== 'object') return undefined;
  const record = values as Record<string, unknown>;
  if (record[name] !== undefined && record[name] !== null) return record[name];
  for (const v of Object.values(record)) {
    const found = firstValueOf(v, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Sets the value at a path Pulumi names (`resource.prop.nested` or `resource.list[0].prop`) in the code. */
function fillIn(resources: Record<string, { properties: Resources }>, path: string, value: string): void {
  const [resource, ...steps] = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  let at: any = resources[resource!]!;
  at.properties ??= {};
  at = at.properties;
  for (const [i, step] of steps.entries()) {
    if (i === steps.length - 1) at[step] = value;
    else at = at[step] ??= /^\d+$/.test(steps[i + 1]!) ? [] : {};
  }
}

/**
 * What `pulumi import --file` takes: one resource per importable example, each naming the package's
 * parameterization (the bridge and the value that points it at our executable), as the declaration
 * `pulumi package add` wrote has it: a fresh stack has no provider of the package to import with.
 */
interface ImportEntry {
  type: string;
  name: string;
  id: string;
  version: string;
  parameterization: { pluginName: string; pluginVersion: string; value: string };
}

function packageDeclaration(project: YamlProject, provider: Provider) {
  const file = join(project.work, 'sdks', provider, `${provider}-0.0.0.yaml`);
  return parse(readFileSync(file, 'utf8')) as {
    name: string;
    version: string;
    parameterization: { name: string; version: string; value: string };
  };
}

for (const provider of ['sec', 'vdb'] as const)
  describe(`acceptance: \`pulumi import\` of every ${provider} type, and the code it prints`, function () {
    this.timeout(900_000);
    let emulator: EmulatorHandle;
    let examples: ExamplesWorkspace;
    let project: YamlProject;
    let entries: ImportEntry[];

    before(async function () {
      emulator = await startEmulator[provider]();
      project = await yamlProject(this, provider, emulator.env);
      await project.run(['package', 'add', 'terraform-provider', executableOf(provider)]);
      // One object of every type, made outside Pulumi: the examples, applied by Terraform.
      examples = await ExamplesWorkspace.create(
        provider,
        loadCases(provider),
        emulator.env,
        MAIN_TERRAFORM_CLI.workspace(this),
      );
      await examples.ws.expect(['apply', '-auto-approve', '-no-color', '-parallelism=20']);
      await emulator.atRest();
      const state = await examples.ws.state();
      const def = await loadProviderDef(provider);
      const tokens = computeTokens(
        provider,
        provider,
        def.resources.map((r) => r.typeName),
        def.dataSources.map((d) => d.typeName),
      ).resources;
      const declared = packageDeclaration(project, provider);
      entries = examples.resources
        .filter((c) => c.importId)
        .map((c) => ({
          type: tokens.get(c.type)!,
          name: c.type.slice(provider.length + 1),
          id: fill(c.importId!, state.get(examples.address(c))!.values),
          version: declared.parameterization.version,
          parameterization: {
            pluginName: declared.name,
            pluginVersion: declared.version,
            value: declared.parameterization.value,
          },
        }));
    });

    after(async () => {
      examples?.dispose();
      await emulator?.close();
      project?.dispose();
    });

    it('has an importable example for every resource type that can be imported', async () => {
      const def = await loadProviderDef(provider);
      const importable = def.resources.filter((r) => r.importIdDescription !== undefined).map((r) => r.typeName);
      const covered = new Set(entries.map((e) => `${provider}_${e.name}`));
      failOnProblems(
        'importable resource types without an import in their acceptance case',
        importable
          .filter((t) => !covered.has(t))
          .map(
            (t) =>
              `${t} can be imported, but no example of it has an import id: give its acceptance case ` +
              `(test/acceptance/cases/${provider}/${t}.json) "importId", built from its state as CASES.md says`,
          ),
      );
    });

    it('adopts one object of each type, creating and changing nothing; the printed code previews with no changes', async () => {
      // Everything the platform holds, object by object: the import must neither make nor change any.
      const collections = [...new Set(examples.resources.map((c) => c.collection).filter((c) => c !== ''))];
      const held = () =>
        JSON.stringify(
          collections.map((name) =>
            emulator
              .ids(name)
              .sort()
              .map((id) => emulator.get(name, id)),
          ),
        );
      const before = held();
      writeFileSync(join(project.dir, 'imports.json'), JSON.stringify({ resources: entries }));
      const codeFile = join(project.dir, 'imported.yaml');
      const imported = await project.run([
        'import',
        '--file',
        join(project.dir, 'imports.json'),
        '--out',
        codeFile,
        '--protect=false',
        '--yes',
        '--stack',
        'test',
      ]);
      const said = `${imported.stdout}${imported.stderr}`;
      // What an import cannot read, a secret the platform never returns, Pulumi names with the path to
      // fill in; any other problem of the imported inputs is a bug.
      const lacking = [...said.matchAll(LACKING)].map((m) => ({ resource: m[1]!, argument: m[2]!, path: m[3]! }));
      const problems = said
        .split('\n')
        .filter((line) => /has a problem/.test(line) && !new RegExp(LACKING.source).test(line))
        .map((line) => line.trim());
      expect(problems.join('\n'), 'no other problem with the imported inputs').to.equal('');
      const sensitive = sensitiveArguments(await loadProviderDef(provider));
      expect(
        lacking.filter((l) => !sensitive.has(l.argument)),
        'only secrets are lacking',
      ).to.deep.equal([]);
      expect(held(), 'the platform holds what it held').to.equal(before);
      // "Please copy the following code into your Pulumi application": its resources into the program,
      // with each secret Pulumi names filled in where it says.
      expect(existsSync(codeFile)).to.equal(true);
      const code = parse(readFileSync(codeFile, 'utf8')) as { resources: Record<string, { properties: Resources }> };
      expect(Object.keys(code.resources).sort()).to.deep.equal(entries.map((e) => e.name).sort());
      // The value is the example's, as its state holds it (a user fills in their own).
      const state = await examples.ws.state();
      const byName = new Map(examples.resources.map((c) => [c.type.slice(provider.length + 1), c]));
      for (const { resource, path, argument } of lacking) {
        const value = firstValueOf(state.get(examples.address(byName.get(resource)!))!.values, argument);
        expect(value, `${resource}: the example's ${argument}`).to.be.a('string');
        fillIn(code.resources, path, value as string);
      }
      project.writeProgram({ resources: code.resources });
      const withSecrets = new Set(lacking.map((l) => l.resource));
      if (withSecrets.size > 0) {
        // The secrets filled in are sent by one update of those objects, and nothing else changes.
        const preview = JSON.parse((await project.run(['preview', '--json', '--stack', 'test'])).stdout);
        expect(preview.changeSummary).to.deep.equal({
          same: entries.length + 1 - withSecrets.size,
          update: withSecrets.size,
        });
        await project.run(['up', '--yes', '--stack', 'test']);
      }
      console.log(
        `      pulumi import: ${entries.length} ${provider} types, ${withSecrets.size} with a secret filled in`,
      );
      await project.run(['preview', '--expect-no-changes', '--stack', 'test']);
    });
  });
