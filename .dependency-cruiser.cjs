/**
 * The layers of the code, as rules over its imports (ARCHITECTURE.md draws them). Each layer names
 * what it may import of the repository's code; anything else is a violation.
 * test/invariants/layers.test.ts checks them on every `npm test`; `npx depcruise src scripts packages` prints
 * the same verdict.
 *
 *   the framework package (packages/framework/src), which imports nothing of the repository beside it:
 *     its face (index, testing, server, release) ─→ server ─→ engine ─→ schema, wire (the ground)
 *   the providers, which reach the framework only by the package's name and its entry points:
 *     resources ─→ clients ─→ contracts (src/wire: sec's contract, vdb's descriptors) and value forms (src/schema)
 *   emulators/<api> ─→ its own modules, emulators/core, the contracts
 *   tools (demo, docs, tfclient, workload, providers, scripts) may import anything
 *
 * Inside the engine, each part is a folder with a face (packages/framework/src/engine/<part>/index.ts): other
 * parts and other layers take a part only through its face (ARCHITECTURE.md, "Inside the engine").
 *
 * Type-only imports count: a type from another layer is a dependency on it all the same.
 */

/** A rule that a layer imports nothing of the repository's code beyond its own folder and the layers named. */
function layer(name, from, mayImport, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from },
    to: { path: '^(src|packages|scripts)/', pathNot: [from, ...mayImport] },
  };
}

const FRAMEWORK = '^packages/framework/src/';
/** The package's entry points (its package.json `exports`), the only modules of it the providers import. */
const FRAMEWORK_ENTRIES = '^packages/framework/src/(index|testing|server|client|release/index)\\.ts$';
const SCHEMA = '^packages/framework/src/schema/';
const WIRE = '^packages/framework/src/wire/';
/** The look-up in a constant table by a key from outside, which every layer uses (packages/framework/src/wire/own-entry.ts). */
const OWN_ENTRY = '^packages/framework/src/wire/own-entry\\.ts$';
const ENGINE = '^packages/framework/src/engine/';
const SERVER = '^packages/framework/src/server/';
/** A part's face: the one module of an engine part that the rest of the code imports. */
const ENGINE_FACE = '^packages/framework/src/engine/[^/]+/index\\.ts$';
/** The providers' code: what sec and vdb are made of, beside the framework. */
const PROVIDERS = '^src/(resources|clients|providers|schema|wire)/|^src/proto-location\\.ts$';
/** The platforms' contracts: sec's contract, vdb's descriptors and field rules, where proto/ is. */
const CONTRACTS = '^src/(wire/|proto-location\\.ts$)';
/** The platforms' value forms (RFC 3339 instants and the like) as attributes check them. */
const FORMS = '^src/schema/';
const CLIENTS = '^src/clients/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other cannot be read, tested or moved alone: cut the circle.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'the-framework-stands-alone',
      comment:
        "The framework package is what authors install: it imports nothing of the repository outside packages/framework/src (sec's and vdb's code, the emulators, the tools, the tests).",
      severity: 'error',
      from: { path: FRAMEWORK },
      to: { path: '^(src|scripts|test|examples)/' },
    },
    {
      name: 'providers-use-the-framework-entries',
      comment:
        "sec and vdb are the framework's users: they take it only through the package's entry points (@keel/provider-framework, /testing, /server, /client, /release), never a module behind them, so the package's public face is what proves them.",
      severity: 'error',
      from: { path: PROVIDERS },
      to: { path: FRAMEWORK, pathNot: FRAMEWORK_ENTRIES },
    },
    {
      name: 'providers-name-the-package',
      comment:
        "sec and vdb import the framework by the package's name, as an author does (tsconfig.json's paths, scripts/framework-link.mjs), never by a path into packages/.",
      severity: 'error',
      from: { path: PROVIDERS },
      to: { path: FRAMEWORK, dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    layer(
      'schema-is-the-ground',
      SCHEMA,
      [OWN_ENTRY],
      "Terraform's value system and the declaration DSL depend on nothing of the project but the look-up by outside keys.",
    ),
    layer(
      'wire-is-the-ground',
      WIRE,
      [],
      "The framework's wire (Go durations, ApiError, API timing, the gRPC server and calls) depends on nothing of the project.",
    ),
    layer(
      'engine-on-schema',
      ENGINE,
      [SCHEMA, WIRE],
      'The lifecycle is written once, over schema values and the API error vocabulary.',
    ),
    {
      name: 'engine-parts-meet-at-their-faces',
      comment:
        "An engine part imports its own modules directly and another part's only through that part's face (its index.ts), so a part's inside can change without its neighbours.",
      severity: 'error',
      from: { path: '^packages/framework/src/engine/([^/]+)/' },
      to: { path: ENGINE, pathNot: ['^packages/framework/src/engine/$1/', ENGINE_FACE] },
    },
    {
      name: 'engine-through-its-faces',
      comment:
        "Code outside the engine takes an engine part only through its face, packages/framework/src/engine/<part>/index.ts, which exports exactly what the product uses. Tests are not held to it (this cruise covers src/, scripts/ and packages/): a test of a part's inner module imports that module.",
      severity: 'error',
      from: { path: '^(src|scripts|packages)/', pathNot: ENGINE },
      to: { path: ENGINE, pathNot: ENGINE_FACE },
    },
    layer('server-on-engine', SERVER, [ENGINE, SCHEMA, WIRE], 'The protocol server hands RPCs to the engine.'),
    layer(
      'contracts-are-the-providers-ground',
      CONTRACTS,
      [FRAMEWORK],
      "The platforms' contracts (sec's contract, vdb's descriptors, proto/) depend on nothing of the providers; emulator and client both read them.",
    ),
    layer(
      'forms-on-contracts',
      FORMS,
      [FRAMEWORK, CONTRACTS],
      "The platforms' value forms read the contracts' formats (RFC 3339) and the framework's validators.",
    ),
    layer(
      'clients-on-contracts',
      CLIENTS,
      [FRAMEWORK, CONTRACTS, FORMS],
      'API clients know the contracts and values, nothing of Terraform.',
    ),
    layer(
      'resources-on-clients',
      '^src/resources/',
      [FRAMEWORK, CLIENTS, CONTRACTS, FORMS],
      "A resource module is its schema and its mapping to the API: the framework's definitions, a client, the contracts.",
    ),
    layer(
      'emulators-share-only-the-contracts',
      '^src/emulators/',
      [CONTRACTS, WIRE],
      "An emulator judges the client, so it shares only the contract (proto/ through src/wire) and the framework's wire (gRPC, Go durations), never the client's code.",
    ),
    {
      name: 'emulators-keep-to-their-api',
      comment: "An API's emulator uses its own modules and emulators/core, not another API's emulator.",
      severity: 'error',
      from: { path: '^src/emulators/(sec|vdb)/' },
      to: { path: '^src/emulators/', pathNot: ['^src/emulators/$1/', '^src/emulators/core/'] },
    },
    {
      name: 'emulator-core-stands-alone',
      comment: 'The shared emulator core (HTTP server, store, clock, faults) knows no API.',
      severity: 'error',
      from: { path: '^src/emulators/core/' },
      to: { path: '^src/emulators/', pathNot: '^src/emulators/core/' },
    },
    {
      name: 'providers-keep-apart',
      comment: "One provider's clients and resources do not use the other's (what both need is in resources/shared).",
      severity: 'error',
      from: { path: '^src/(?:clients|resources)/(sec|vdb)/' },
      to: { path: '^src/(?:clients|resources)/(?:sec|vdb)/', pathNot: '^src/(?:clients|resources)/$1/' },
    },
    {
      name: 'no-test-code-in-the-product',
      severity: 'error',
      from: { path: '^(src|scripts|packages)/' },
      to: { path: '^test/' },
    },
    {
      name: 'imports-resolve',
      comment: 'An import the cruiser cannot resolve would escape every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
