#!/usr/bin/env node
// Bundles each provider executable into three CommonJS files: its start-up part
// (dist/bundle/terraform-provider-<name>.cjs: the go-plugin server and the schema answers), its
// service (terraform-provider-<name>-service.cjs: the tfplugin6 codecs, the engine, the resources and
// the API client without its libraries), which the first call that needs it loads, and its client
// (terraform-provider-<name>-client.cjs: what the first call to the platform loads, zod or grpc-js):
// most processes Terraform starts never call the platform. Each has V8's code cache beside it
// (….cjs.cache), so that start-up neither resolves hundreds of modules nor compiles megabytes of
// JavaScript. Terraform starts a provider three to five times per command, so this is paid often, and
// one of those processes only shakes hands and asks for the schema: it reads the first file alone
// (docs/benchmarks.md: handshake).
//
// bin/start-bundle.cjs loads the bundles with their caches. The caches are made by a warm-up run of
// the real executable (handshake, health check, schema, and a few resources through their lifecycle)
// so that they cover the start-up and request paths; V8 ignores a cache made by another Node version
// or other flags, and then compiles as usual.
//
// Packages that read files beside their own sources (grpc-health-check's health.proto, grpc-js's
// channelz/orca protos) get those files copied to dist/bundle/assets/<package>/ and their
// `__dirname` pointed there, so they find them at the same relative paths.
//
// The start-up bundle holds its provider's schema answers encoded at build time (prebuiltSchemas,
// below).
//
// The bundles are not modules node can run directly: bin/start-bundle.cjs loads them.
//
// The providers are those of src/providers/project.ts (PROJECT_PROVIDERS, from tsc's output): each
// one's entry modules and definition come from its entry there. The start-up bundles never load that
// list: it is this script's, not the executables'.
//
// Usage: node scripts/bundle.mjs   (after tsc; part of `npm run build`)
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(repoRoot, 'dist', 'bundle');
/** Packages whose code reads `${__dirname}/../../proto/…` at run time. */
const PACKAGES_WITH_ASSETS = ['grpc-health-check', '@grpc/grpc-js'];

// Files are replaced by rename, never deleted first, so a provider started meanwhile (tests run
// while a build happens) finds either the old or the new bundle; a cache made for another bundle is
// not used (withBuildId).
mkdirSync(outDir, { recursive: true });
for (const pkg of PACKAGES_WITH_ASSETS) {
  cpSync(join(repoRoot, 'node_modules', pkg, 'proto'), join(outDir, 'assets', pkg, 'proto'), { recursive: true });
}

/**
 * Writes <outfile>.packages.json: the npm packages whose files the bundles hold (their folders, relative
 * to the repository), for the release's licence notices (scripts/release).
 */
function writePackageList(metafiles, outfile) {
  const packages = packagesOf(metafiles.flatMap((metafile) => Object.keys(metafile.inputs)));
  // The framework's name resolves to the repository's own build (scripts/framework-link.mjs): not a third party.
  const list = packages
    .map((dir) => dir.slice(repoRoot.length + 1))
    .filter((dir) => !dir.startsWith('dist/node_modules/'))
    .sort();
  writeFileSync(`${outfile}.packages.json`, `${JSON.stringify(list, null, 2)}\n`);
}

// A bundle's shape (its build id, which keys its code cache, and its module wrapper) is the framework's
// release's (packages/framework/src/release/bundle.ts): an author's bundle and these are loaded alike.
const { BUNDLE_BANNER, BUNDLE_FOOTER, packagesOf, withBuildId } = await import(
  pathToFileURL(join(repoRoot, 'dist', 'packages', 'framework', 'src', 'release', 'bundle.js')).href
);

/**
 * esbuild would read tsconfig.json's `paths` for the framework's name and bundle its TypeScript source; the
 * bundles are made of tsc's output, which reaches the framework as Node does (scripts/framework-link.mjs).
 */
const BUILT_MODULES_ONLY = '{}';

/** Points `__dirname` of a package's build/src/*.js at its copied assets. */
const relocateAssets = {
  name: 'relocate-assets',
  setup(builder) {
    const filter = new RegExp(
      `node_modules/(${PACKAGES_WITH_ASSETS.map((p) => p.replace('/', '\\/')).join('|')})/build/src/[^/]+\\.js$`,
    );
    builder.onLoad({ filter }, (args) => {
      const pkg = args.path.match(filter)[1];
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('__dirname')) return undefined;
      const dir = JSON.stringify(`assets/${pkg}/build/src`);
      return { contents: `var __dirname = require('node:path').join(__bundleDir, ${dir});\n${source}`, loader: 'js' };
    });
  },
};

const dist = (path) => import(pathToFileURL(join(repoRoot, 'dist', 'src', path)).href);
/** A module of the framework's build (packages/framework/src), behind the package's name. */
const framework = (path) => import(pathToFileURL(join(repoRoot, 'dist', 'packages', 'framework', 'src', path)).href);
/** The providers this repository builds (src/providers/project.ts). */
const { PROJECT_PROVIDERS, builtModule } = await dist('providers/project.js');
/** A module of the repository (a provider's startModule, serviceModule) as tsc wrote it, an absolute path. */
const built = (module) => join(repoRoot, ...builtModule(module).split('/'));
/**
 * A regular expression for esbuild's `filter` that matches the file at `path` (relative to the
 * repository, `/` separated) wherever the repository is, with either separator.
 */
const fileFilter = (path) => new RegExp(`[\\\\/]${path.split('/').map(escapeRegExp).join('[\\\\/]')}$`);
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces src/providers/prebuilt-schemas.ts in a provider's bundle by one holding its schema answers
 * (GetProviderSchema, GetResourceIdentitySchemas), encoded now by the server's own encoder from the
 * provider's definition (the one its service takes), so that no provider process encodes them at run time.
 */
async function prebuiltSchemas(provider) {
  const [{ ProviderEngine }, { encodeSchemaResponses }, def] = await Promise.all([
    framework('engine/entry/index.js'),
    framework('server/provider-service.js'),
    provider.definition(),
  ]);
  const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => quiet, enabled: () => false };
  const { schema, identitySchemas } = encodeSchemaResponses(new ProviderEngine(def, quiet, {}));
  const answers = { schema: schema.toString('base64'), identitySchemas: identitySchemas.toString('base64') };
  const contents = `export const PREBUILT_SCHEMA_RESPONSES = ${JSON.stringify(answers)};\n`;
  return {
    name: 'prebuilt-schemas',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]dist[\\/]src[\\/]providers[\\/]prebuilt-schemas\.js$/ }, () => ({
        contents,
        loader: 'js',
      }));
    },
  };
}

/**
 * In a provider's start-up bundle, its service module (its serviceModule, src/providers/<name>-service.ts)
 * is replaced by one that loads the service bundle through bin/start-bundle.cjs (`keel-bundle:<file>`),
 * when first called.
 */
function serviceFromBundle(provider, serviceFile) {
  const filter = fileFilter(builtModule(provider.serviceModule));
  const id = JSON.stringify(`keel-bundle:${serviceFile}`);
  return {
    name: 'service-from-bundle',
    setup(builder) {
      builder.onResolve({ filter: /^keel-bundle:/ }, (args) => ({ path: args.path, external: true }));
      builder.onLoad({ filter }, () => ({
        contents: `export const createService = (...args) => require(${id}).createService(...args);\n`,
        loader: 'js',
      }));
    },
  };
}

/**
 * zod's namespace re-exports every locale (`z.locales`), ~313 KB of source the providers never use:
 * they keep zod's default, English. Each bundle gets zod's locale index with English alone.
 */
const englishZodLocalesOnly = {
  name: 'english-zod-locales-only',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * src/resources/vdb/yaml-library.ts loads the `yaml` package at its first use with a `require` made by
 * createRequire, which esbuild cannot follow (and which would look for node_modules beside the
 * bundle). In the bundles it is the same module with a plain `require("yaml")`: esbuild bundles the
 * package as a CommonJS module that runs at that call, not when the bundle loads.
 */
const yamlAtFirstUse = {
  name: 'yaml-at-first-use',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]dist[\\/]src[\\/]resources[\\/]vdb[\\/]yaml-library\.js$/ }, () => ({
      contents: 'let loaded;\nexport function yamlLibrary() {\n  return (loaded ??= require("yaml"));\n}\n',
      loader: 'js',
    }));
  },
};

/**
 * One bundle of a provider executable, written with its build id; returns esbuild's metafile.
 * `entry`: a built module (an absolute path), or the text of a module (`{ name, contents, resolveDir }`).
 */
async function bundleProviderPart(entry, outfile, plugins, { write = true } = {}) {
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: entry.resolveDir, sourcefile: entry.name, loader: 'js' } }),
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The modules' own location (src/proto-location.ts) becomes the bundle's: both are one level below dist/.
    define: { 'import.meta.url': '__bundleUrl' },
    tsconfigRaw: BUILT_MODULES_ONLY,
    // The file is one function expression in CommonJS's module-wrapper shape, so bin/start-bundle.cjs
    // compiles it as it is; wrapping it at load time would copy megabytes of source.
    // It opens with its build id (filled in below), which keys its code cache.
    banner: { js: BUNDLE_BANNER },
    footer: { js: BUNDLE_FOOTER },
    // ASCII only (non-ASCII characters escaped), so the loader can read the file as Latin-1.
    charset: 'ascii',
    plugins: [relocateAssets, englishZodLocalesOnly, yamlAtFirstUse, ...plugins],
    logLevel: 'warning',
    write: false,
    metafile: true,
    legalComments: 'none',
    sourcemap: true,
    minifyWhitespace: true,
    mainFields: ['module', 'main'],
  });
  if (result.errors.length > 0) process.exit(1);
  if (!write) return result.metafile;
  for (const output of result.outputFiles) {
    const contents = output.path === outfile ? withBuildId(output.contents) : output.contents;
    writeFileSync(`${output.path}.tmp`, contents);
    renameSync(`${output.path}.tmp`, output.path);
  }
  return result.metafile;
}

/** An input of esbuild's metafile as an absolute path. */
const inputPath = (input) => resolve(repoRoot, input).split('\\').join('/');
/** The key the client bundle and the service use for a module both hold: its path in the repository. */
const moduleKey = (path) => path.slice(repoRoot.length + 1);

/**
 * The libraries only calls to a platform need (and sec's profile reader): zod, smol-toml, grpc-js, protobufjs,
 * and sec's proxy tunnel (https-proxy-agent).
 */
const CLIENT_LIBRARIES = /(^|\/)node_modules\/(zod|smol-toml|@grpc\/grpc-js|protobufjs|https-proxy-agent)\//;

/**
 * The modules a service loads on first use (`import()`) that bring a client library with them, as
 * absolute paths: the sec API modules, the token reader and the profile reader (zod, smol-toml), vdb's
 * transport (grpc-js). `metafile` is the service bundled whole. Found backwards from the libraries
 * over static imports, so a module that reaches one through any chain counts.
 */
function firstUseImports(metafile) {
  const importers = new Map();
  for (const [path, input] of Object.entries(metafile.inputs))
    for (const i of input.imports)
      if (i.kind !== 'dynamic-import' && !i.external) importers.set(i.path, [...(importers.get(i.path) ?? []), path]);
  const reaches = new Set(Object.keys(metafile.inputs).filter((path) => CLIENT_LIBRARIES.test(path)));
  for (const path of reaches) for (const importer of importers.get(path) ?? []) reaches.add(importer);
  const targets = new Set();
  for (const input of Object.values(metafile.inputs))
    for (const i of input.imports)
      if (i.kind === 'dynamic-import' && reaches.has(i.path)) targets.add(inputPath(i.path));
  return targets;
}

/**
 * In a provider's service bundle, the modules of `firstUse` (firstUseImports) are left to its client
 * bundle, loaded through bin/start-bundle.cjs (`keel-bundle:<file>`) by their `import()`: configuring
 * the provider loads neither, only the first call to the platform. `deferred` collects them (path → key).
 */
function firstUseFromClient(clientFile, firstUse, deferred) {
  return {
    name: 'first-use-from-client',
    setup(builder) {
      builder.onResolve({ filter: /^keel-bundle:/ }, (args) => ({ path: args.path, external: true }));
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const path = inputPath(resolve(args.resolveDir, args.path));
        if (!firstUse.has(path)) return undefined;
        deferred.set(path, moduleKey(path));
        // Named by its key (its path in the repository): esbuild writes the name into the bundle.
        return { path: moduleKey(path), namespace: 'keel-client' };
      });
      builder.onLoad({ filter: /.*/, namespace: 'keel-client' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`keel-bundle:${clientFile}`)}).modules[${JSON.stringify(args.path)}];\n`,
        loader: 'js',
      }));
    },
  };
}

/**
 * In a provider's client bundle, every module its service bundle holds too (the engine's errors, the
 * API timing, the cancellation signals, …) is taken from the service, through its `shared` export:
 * one instance of each, so that `instanceof` and module state mean the same on both sides. `shared`
 * collects them (path → key).
 */
function modulesFromService(serviceFile, serviceInputs, shared) {
  return {
    name: 'modules-from-service',
    setup(builder) {
      builder.onResolve({ filter: /^keel-bundle:/ }, (args) => ({ path: args.path, external: true }));
      builder.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.fromService || args.kind === 'entry-point' || args.path.startsWith('node:'))
          return undefined;
        const found = await builder.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { fromService: true },
        });
        if (found.errors.length > 0 || found.external) return undefined;
        const path = inputPath(found.path);
        if (!serviceInputs.has(path)) return undefined;
        shared.set(path, moduleKey(path));
        // Named by its key (its path in the repository): esbuild writes the name into the bundle.
        return { path: moduleKey(path), namespace: 'keel-service' };
      });
      builder.onLoad({ filter: /.*/, namespace: 'keel-service' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`keel-bundle:${serviceFile}`)}).shared[${JSON.stringify(args.path)}];\n`,
        loader: 'js',
      }));
    },
  };
}

/**
 * A module exporting `modules` (or `shared`): each module of `paths` by its key, as a getter that
 * requires it, so that esbuild initialises each on first use only (the sec client's API modules each
 * build their own zod schemas), as the `import()` it stands for did. In key order: `paths` is filled
 * by esbuild's concurrent onResolve callbacks, in a different order on each build, and the bundle
 * (and so its build id and code cache) must be the same bytes every time.
 */
function lazyModulesModule(exportName, paths, reexport = '') {
  const byKey = [...paths].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    reexport ? `export * from ${JSON.stringify(reexport)};` : '',
    `export const ${exportName} = {};`,
    ...byKey.map(
      ([path, key]) =>
        `Object.defineProperty(${exportName}, ${JSON.stringify(key)}, { enumerable: true, get: () => require(${JSON.stringify(path)}) });`,
    ),
    '',
  ].join('\n');
}

// Each executable is three bundles: terraform-provider-<name>.cjs, its start-up part (the go-plugin
// server and the schema answers); terraform-provider-<name>-service.cjs, the tfplugin6 service
// (codecs, engine, resources, the API client without its libraries), which the first call that needs
// it loads (src/providers/serve.ts); and terraform-provider-<name>-client.cjs, what the first call to
// the platform loads (zod and the sec API modules, vdb's grpc-js transport). Terraform's schema-only
// process reads the first alone; those that validate, plan creates or only upgrade states never read
// the third. The service is bundled whole to find the split, then without the client's modules to
// know which modules it holds, then, once the client bundle has taken those it needs from it, to
// export them (`shared`).
for (const provider of PROJECT_PROVIDERS) {
  const { name } = provider;
  const serviceFile = `terraform-provider-${name}-service.cjs`;
  const clientFile = `terraform-provider-${name}-client.cjs`;
  const serviceEntry = built(provider.serviceModule);
  // The entry modules written here are resolved where the service is.
  const resolveDir = dirname(serviceEntry);
  const whole = await bundleProviderPart(serviceEntry, join(outDir, serviceFile), [], { write: false });
  const firstUse = firstUseImports(whole);
  const deferred = new Map();
  const servicePlugins = () => [firstUseFromClient(clientFile, firstUse, deferred)];
  const holds = await bundleProviderPart(serviceEntry, join(outDir, serviceFile), servicePlugins(), {
    write: false,
  });
  const shared = new Map();
  const client = await bundleProviderPart(
    { name: `${name}-client-entry.js`, contents: lazyModulesModule('modules', deferred), resolveDir },
    join(outDir, clientFile),
    [modulesFromService(serviceFile, new Set(Object.keys(holds.inputs).map(inputPath)), shared)],
  );
  const service = await bundleProviderPart(
    { name: `${name}-service-entry.js`, contents: lazyModulesModule('shared', shared, serviceEntry), resolveDir },
    join(outDir, serviceFile),
    servicePlugins(),
  );
  const outfile = join(outDir, `terraform-provider-${name}.cjs`);
  const startUp = await bundleProviderPart(built(provider.startModule), outfile, [
    await prebuiltSchemas(provider),
    serviceFromBundle(provider, serviceFile),
  ]);
  writePackageList([startUp, service, client], outfile);
}

// The emulators as one plain CommonJS file (dist/bundle/emulator.cjs, run by node as it is: their
// start-up is not on Terraform's path, so no code cache), for the release's <name>-emulator
// executables (scripts/release). Assets and the descriptor path resolve as for the providers.
{
  const outfile = join(outDir, 'emulator.cjs');
  const result = await build({
    entryPoints: [join(repoRoot, 'dist', 'src', 'emulators', 'main.js')],
    tsconfigRaw: BUILT_MODULES_ONLY,
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: { 'import.meta.url': '__bundleUrl' },
    banner: {
      js: "var __bundleDir = __dirname; var __bundleUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    plugins: [relocateAssets],
    logLevel: 'warning',
    write: false,
    metafile: true,
    legalComments: 'none',
    sourcemap: true,
    minifyWhitespace: true,
    mainFields: ['module', 'main'],
  });
  if (result.errors.length > 0) process.exit(1);
  for (const output of result.outputFiles) {
    writeFileSync(`${output.path}.tmp`, output.contents);
    renameSync(`${output.path}.tmp`, output.path);
  }
  writePackageList([result.metafile], outfile);
}

// The handshake benchmark's Node floor server (scripts/bench/floor-server.ts), as one CommonJS file.
await build({
  entryPoints: [join(repoRoot, 'dist', 'scripts', 'bench', 'floor-server.js')],
  tsconfigRaw: BUILT_MODULES_ONLY,
  outfile: join(outDir, 'bench-floor-server.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});

// Warm-up runs: each executable starts, shakes hands, answers health and GetProviderSchema, is
// configured against its emulator and takes a few resources through what a refresh, a plan and an
// apply ask (validate, plan, create, upgrade, read, plan again, delete); bin/start-bundle.cjs
// writes the code cache as it exits. The cache then holds the compiled code of the request path
// too, which every process that serves it would otherwise compile on first use
// (docs/benchmarks.md, "Refresh and plan against a Go provider (2026-11-23 to 2026-11-24)").
const [
  { TerraformClient },
  { massConfig },
  { startSecEmulator },
  { startVdbEmulator },
  { encodeJSON },
  { impliedType },
  cli,
] = await Promise.all([
  dist('tfclient/terraform-client.js'),
  dist('workload/mass-config.js'),
  dist('emulators/sec/index.js'),
  dist('emulators/vdb/index.js'),
  framework('schema/json.js'),
  framework('schema/block.js'),
  dist('tfclient/terraform-cli.js'),
]);
/** The emulators the warm-up runs configure each provider against, by provider name. */
const EMULATORS = {
  sec: async () => {
    const e = await startSecEmulator();
    return {
      emulator: e,
      connection: { provider: 'sec', url: e.url, account: e.account, apiKey: e.apiKey, apiSecret: e.apiSecret },
      env: cli.secProviderEnv(e),
    };
  },
  vdb: async () => {
    const e = await startVdbEmulator({ provisioningMs: 0 });
    return {
      emulator: e,
      connection: { provider: 'vdb', url: e.url, apiKey: e.apiKey, accountId: e.accountId },
      env: cli.vdbProviderEnv(e),
    };
  },
};
for (const { name, offlineSettings } of PROJECT_PROVIDERS) {
  if (!EMULATORS[name]) {
    // A provider with no emulator here: its caches cover start-up, the schema and configuring it with
    // settings that reach nothing (its offlineSettings, as the release's warm-up does).
    const client = await TerraformClient.start(join(repoRoot, 'bin', `terraform-provider-${name}`), {
      ...offlineSettings,
      KEEL_WRITE_CODE_CACHE: '1',
    });
    await client.plugin.health();
    await client.configure({});
    await client.close();
    continue;
  }
  const { emulator, connection, env } = await EMULATORS[name]();
  try {
    const client = await TerraformClient.start(join(repoRoot, 'bin', `terraform-provider-${name}`), {
      ...env,
      KEEL_WRITE_CODE_CACHE: '1',
    });
    await client.plugin.health();
    await client.configure({});
    // The workload's first resources of the kinds that refer to nothing else.
    const objects = massConfig(connection, { count: 6 })
      .objects.filter((o) => Object.keys(o.references).length === 0)
      .slice(0, 2);
    for (const object of objects) {
      const block = client.resourceSchema(object.type).block;
      const config = client.config(block, object.body);
      await client.validateResource(object.type, config);
      const { state } = await client.apply(object.type, null, await client.plan(object.type, null, config), config);
      const upgraded = await client.upgrade(
        object.type,
        client.resourceSchema(object.type).version,
        encodeJSON(impliedType(block), state),
      );
      const { state: fresh } = await client.read(object.type, upgraded);
      await client.plan(object.type, fresh, config);
      await client.apply(object.type, fresh, await client.plan(object.type, fresh, null), null);
    }
    await client.close();
  } finally {
    await emulator.close();
  }
}
