/**
 * Terraform starts a provider three to five times per command, and most starts only answer the schema,
 * validate or plan. So an executable is three bundles (scripts/bundle.mjs): its start-up part, the
 * go-plugin server with the schema answers built in; its service (tfplugin6 codecs, engine,
 * resources, the API client without its libraries), which the first call that needs it loads, so a
 * process that only shakes hands and asks for the schema never reads it; and its client, the API
 * client's libraries (zod's schemas, sec's profile reader, vdb's gRPC client), which the first call to
 * the platform loads, never configuring nor the definitions (docs/benchmarks.md). A resource that
 * imports a constant from a client module that builds zod schemas breaks this silently, so the rule
 * is checked over every resource of both providers: the module graph loaded by each provider's
 * definitions.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { encodeSchemaResponses } from '../../packages/framework/src/server/provider-service.js';
import { launchProvider } from '../../src/tfclient/launch.js';
import { TerraformClient, type PlannedChange } from '../../src/tfclient/terraform-client.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { quietLogger } from '../support/quiet-logger.js';
import { loadProviderDef } from '../../src/providers/describe.js';

const ROOT = resolve(process.cwd());
/** Libraries only calls to the platform need: their folders under node_modules. */
const CLIENT_LIBRARIES = ['zod', 'smol-toml', '@grpc', 'protobufjs', 'https-proxy-agent', 'agent-base'];
const isClientLibrary = (path: string) => CLIENT_LIBRARIES.some((lib) => path.includes(`node_modules/${lib}/`));

/** Every module URL node resolves while importing `entry`, in a fresh process. */
function modulesLoadedBy(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'keel-start-up-'));
  const log = join(dir, 'resolved.log');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}
`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
  );
  writeFileSync(log, '');
  execFileSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(dir, 'register.mjs')).href,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(pathToFileURL(entry).href)})`,
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** The sources a bundle of dist/bundle was made of (its source map). */
function bundleSources(file: string): string[] {
  return (JSON.parse(readFileSync(join(ROOT, 'dist', 'bundle', `${file}.map`), 'utf8')) as { sources: string[] })
    .sources;
}

describe('start-up loads no client library', function () {
  this.timeout(60_000);
  // The go-plugin server is our own gRPC over node:http2 (packages/framework/src/wire/grpc-server.ts), which its
  // start-up
  // bundle requires, as every start must listen (nghttp2 keeps HTTP/2's rules against hostile
  // peers). sec's API client is on node:http/node:https (llhttp), in its client bundle: no gRPC library
  // is in sec's executable, and its start-up bundle requires no HTTP/1.1 module.
  it('sec: its executable bundles hold no gRPC library; start-up requires node:http2 and no node:http(s)', () => {
    const files = [
      'terraform-provider-sec.cjs',
      'terraform-provider-sec-service.cjs',
      'terraform-provider-sec-client.cjs',
    ];
    const sources = files.flatMap(bundleSources);
    expect(sources.some((source) => source.includes('src/clients/sec/http-pool.ts'))).to.equal(true);
    expect(sources.filter((source) => /node_modules\/(@grpc|undici)\//.test(source))).to.deep.equal([]);
    const startUp = readFileSync(join(ROOT, 'dist', 'bundle', files[0]!), 'latin1');
    expect(startUp.match(/require\("(node:)?https?2?"\)/g)).to.deep.equal(['require("node:http2")']);
    // The proxy tunnel's library is the client bundle's, loaded only when a proxy is used.
    expect(bundleSources(files[2]!).some((source) => source.includes('node_modules/https-proxy-agent/'))).to.equal(
      true,
    );
  });

  for (const name of ['sec', 'vdb']) {
    it(`${name}: its start-up bundle is the go-plugin server alone, without any part of the service`, () => {
      const sources = bundleSources(`terraform-provider-${name}.cjs`);
      expect(sources.some((source) => source.includes('packages/framework/src/wire/grpc-server.ts'))).to.equal(true);
      expect(sources.some((source) => source.includes('packages/framework/src/server/main.ts'))).to.equal(true);
      // The provider's version is the one module of its definitions the server needs (--version).
      const service = sources.filter(
        (source) =>
          !source.endsWith(`src/resources/${name}/version.ts`) &&
          /src\/(engine|resources|clients|schema)\/|tfplugin6-messages|provider-service|node_modules\/(zod|@grpc)\//.test(
            source,
          ),
      );
      expect(service, 'service modules in the start-up bundle').to.deep.equal([]);
      const serviceSources = bundleSources(`terraform-provider-${name}-service.cjs`);
      expect(serviceSources.some((source) => source.includes(`src/resources/${name}/index.ts`))).to.equal(true);
      expect(
        serviceSources.filter((source) => source.includes('packages/framework/src/wire/grpc-server.ts')),
      ).to.deep.equal([]);
    });

    it(`${name}: shakes hands and answers the schema without its service bundle, which the next call needs`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'keel-start-up-only-'));
      try {
        mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
        cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
        for (const file of [`terraform-provider-${name}.cjs`, `terraform-provider-${name}.cjs.cache`])
          copyFileSync(join(ROOT, 'dist', 'bundle', file), join(dir, 'dist', 'bundle', file));
        const fresh = encodeSchemaResponses(new ProviderEngine(await loadProviderDef(name), quietLogger, {}));
        const p = await launchProvider(join(dir, 'bin', `terraform-provider-${name}`));
        try {
          expect(await p.health()).to.equal('SERVING');
          const schema = await p.callRaw('GetProviderSchema', Buffer.alloc(0));
          expect(schema.equals(fresh.schema), 'GetProviderSchema').to.equal(true);
          const identities = await p.callRaw('GetResourceIdentitySchemas', Buffer.alloc(0));
          expect(identities.equals(fresh.identitySchemas), 'GetResourceIdentitySchemas').to.equal(true);
          let failure: Error | undefined;
          await p.call('GetMetadata', {}).catch((e: Error) => (failure = e));
          expect(failure?.message).to.contain(`terraform-provider-${name}-service.cjs`);
        } finally {
          await p.shutdown();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
  /** Per provider: a resource it plans without calling its platform, and a call that reaches the platform. */
  interface FirstPlatformCall {
    name: 'sec' | 'vdb';
    library: string;
    resourceType: string;
    planConfig: Record<string, unknown>;
    reachPlatform(client: TerraformClient, planned: PlannedChange, config: ObjectValue): Promise<unknown>;
  }
  const providers: FirstPlatformCall[] = [
    {
      name: 'sec',
      library: 'zod',
      resourceType: 'sec_alert_channel_email',
      planConfig: { name: 'ops', recipients: ['ops@example.com'] },
      reachPlatform: (client, planned, config) => client.apply('sec_alert_channel_email', null, planned, config),
    },
    {
      name: 'vdb',
      library: '@grpc/grpc-js',
      resourceType: 'vdb_accounts_role',
      planConfig: { name: 'readers', permissions: [{ value: 'read:clusters' }] },
      reachPlatform: (client) =>
        client.readData(
          'vdb_booking_packages',
          client.config(client.dataSourceSchema('vdb_booking_packages').block, {
            cloud_provider: 'aws',
            cloud_region: 'us-east-1',
          }),
        ),
    },
  ];
  for (const { name, library, resourceType, planConfig, reachPlatform } of providers) {
    it(`${name}: its service bundle holds no client library, which its client bundle holds and takes every shared module from the service`, () => {
      const service = bundleSources(`terraform-provider-${name}-service.cjs`);
      const client = bundleSources(`terraform-provider-${name}-client.cjs`);
      expect(service.some((source) => source.includes(`src/resources/${name}/index.ts`))).to.equal(true);
      // The client is made when the provider is configured; its libraries load at its first call.
      expect(service.some((source) => source.includes(`src/clients/${name}/client.ts`))).to.equal(true);
      expect(client.some((source) => source.includes(`node_modules/${library}/`))).to.equal(true);
      const libraries = service.filter(isClientLibrary);
      expect(libraries, 'client libraries in the service bundle').to.deep.equal([]);
      // A module in both would be two modules: two ApiError classes, two API timings.
      expect(client.filter((source) => service.includes(source))).to.deep.equal([]);
      const code = readFileSync(join(ROOT, 'dist', 'bundle', `terraform-provider-${name}-client.cjs`), 'latin1');
      expect(code).to.contain(`require("keel-bundle:terraform-provider-${name}-service.cjs").shared["dist/src/`);
      expect(code).not.to.contain('name="ApiError"');
    });

    it(`${name}: validates, configures and plans without its client bundle, which the first call to the platform needs`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'keel-no-client-'));
      try {
        mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
        cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
        for (const part of ['', '-service'])
          for (const suffix of ['.cjs', '.cjs.cache'])
            copyFileSync(
              join(ROOT, 'dist', 'bundle', `terraform-provider-${name}${part}${suffix}`),
              join(dir, 'dist', 'bundle', `terraform-provider-${name}${part}${suffix}`),
            );
        // Settings that configuring accepts; the platform they name is never reached.
        const settings = {
          sec: secProviderEnv({ url: 'https://api.invalid', account: 'a', apiKey: 'KEY_ID', apiSecret: '_secret' }),
          vdb: vdbProviderEnv({ url: 'https://api.invalid', apiKey: 'key', accountId: 'account' }),
        }[name];
        const client = await TerraformClient.start(join(dir, 'bin', `terraform-provider-${name}`), settings);
        try {
          await client.validateProvider({});
          // The resource is judged by the service alone: its required arguments are missing.
          let invalid: Error | undefined;
          const block = client.resourceSchema(resourceType).block;
          await client.validateResource(resourceType, client.config(block, {})).catch((e: Error) => (invalid = e));
          expect(invalid?.message).to.match(/required/i);
          await client.configure({});
          const config = client.config(block, planConfig);
          const planned = await client.plan(resourceType, null, config);
          expect(planned.planned).to.not.equal(null);
          let failure: Error | undefined;
          await reachPlatform(client, planned, config).catch((e: Error) => (failure = e));
          expect(failure?.message).to.contain(`terraform-provider-${name}-client.cjs`);
        } finally {
          await client.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  for (const name of ['sec', 'vdb']) {
    it(`${name}: its definitions (every resource, data source and function) load neither ${CLIENT_LIBRARIES.join(' nor ')}`, () => {
      const loaded = modulesLoadedBy(join(ROOT, 'dist', 'src', 'resources', name, 'index.js'));
      // The graph is real: the definitions and the engine were resolved.
      expect(loaded.some((url) => url.includes('/dist/packages/framework/src/engine/'))).to.equal(true);
      const offending = loaded.filter(isClientLibrary);
      expect(offending, 'client libraries resolved at start-up').to.deep.equal([]);
    });
  }

  // Only a hybrid environment's advanced_operator_settings need the `yaml` package (src/resources/vdb/
  // yaml-library.ts): it loads when settings are first read, in the modules and in the bundle.
  it('vdb: the YAML library loads when operator settings are first read, not with the definitions or the service', () => {
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const yamlLoaded = () => Object.keys(cache).some((path) => path.includes('/node_modules/yaml/'));
      await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'src', 'resources', 'vdb', 'index.js')).href)});
      const withDefinitions = yamlLoaded();
      const { settingsProblem } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'src', 'resources', 'vdb', 'operator-settings.js')).href)});
      settingsProblem('operator: {logLevel: debug}');
      console.log(JSON.stringify([withDefinitions, yamlLoaded()]));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out), '[loaded with the definitions, loaded after reading settings]').to.deep.equal([
      false,
      true,
    ]);
    const service = 'terraform-provider-vdb-service.cjs';
    expect(bundleSources(service).some((source) => source.includes('node_modules/yaml/dist/'))).to.equal(true);
    // esbuild wraps the package in a CommonJS module that runs when its require_… function is first
    // called: that call is in yamlLibrary alone.
    const code = readFileSync(join(ROOT, 'dist', 'bundle', service), 'latin1');
    const runner = /function yamlLibrary\(\)\{return loaded\?\?=(require_\w+)\(\)\}/.exec(code)?.[1];
    expect(runner, 'yamlLibrary in the service bundle').to.be.a('string');
    expect(code.split(`${runner}()`).length - 1, `calls of ${runner}`).to.equal(1);
  });
});
