/**
 * The layers of the code, as rules over its imports (ARCHITECTURE.md draws them). Each layer names
 * what it may import from src/; anything else is a violation. test/invariants/layers.test.ts checks
 * them on every `npm test`; `npx depcruise src scripts` prints the same verdict.
 *
 *   tools (demo, docs, tfclient, workload, providers, scripts)   may import anything
 *   framework ─→ server ─→ engine ─→ schema, wire   (framework: the package's face, packages/framework)
 *   resources ─→ engine, clients, schema, wire
 *   clients ─→ schema, wire
 *   emulators/<api> ─→ its own modules, emulators/core, wire
 *   schema, wire: the ground (nothing of src above them; schema reads the wire's RFC 3339 parser and
 *                 its look-up by outside keys)
 *
 * Inside the engine, each part is a folder with a face (src/engine/<part>/index.ts): other parts and
 * other layers take a part only through its face (ARCHITECTURE.md, "Inside the engine").
 *
 * Type-only imports count: a type from another layer is a dependency on it all the same.
 */

/** A rule that a layer imports nothing of src/ beyond its own folder and the layers named. */
function layer(name, from, mayImport, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from },
    to: { path: '^src/', pathNot: [from, ...mayImport] },
  };
}

const SCHEMA = '^src/schema/';
const WIRE = '^src/(wire/|proto-location\\.ts$)';
/** The formats the platforms' contracts fix, which the value system reads as they do. */
const WIRE_FORMATS = '^src/wire/rfc3339\\.ts$';
/** The look-up in a constant table by a key from outside, which every layer uses (src/wire/own-entry.ts). */
const OWN_ENTRY = '^src/wire/own-entry\\.ts$';
const ENGINE = '^src/engine/';
const CLIENTS = '^src/clients/';
/** A part's face: the one module of an engine part that the rest of the code imports. */
const ENGINE_FACE = '^src/engine/[^/]+/index\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other cannot be read, tested or moved alone: cut the circle.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer(
      'schema-is-the-ground',
      SCHEMA,
      [WIRE_FORMATS, OWN_ENTRY],
      "Terraform's value system and the declaration DSL depend on nothing of the project but the wire's formats (RFC 3339), which they read as the platforms do, and its look-up by outside keys.",
    ),
    layer(
      'wire-is-the-ground',
      WIRE,
      [],
      'The contracts with the platforms (proto/, Go durations, ApiError, API timing) and the gRPC server both sides serve on depend on nothing of the project.',
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
      from: { path: '^src/engine/([^/]+)/' },
      to: { path: ENGINE, pathNot: ['^src/engine/$1/', ENGINE_FACE] },
    },
    {
      name: 'engine-through-its-faces',
      comment:
        "Code outside the engine takes an engine part only through its face, src/engine/<part>/index.ts, which exports exactly what the product uses. Tests are not held to it (this cruise covers src/ and scripts/): a test of a part's inner module imports that module.",
      severity: 'error',
      from: { path: '^(src|scripts)/', pathNot: ENGINE },
      to: { path: ENGINE, pathNot: ENGINE_FACE },
    },
    layer('server-on-engine', '^src/server/', [ENGINE, SCHEMA, WIRE], 'The protocol server hands RPCs to the engine.'),
    layer(
      'framework-on-server',
      '^src/framework/',
      ['^src/server/', ENGINE, SCHEMA, WIRE],
      "The framework package holds the server, the engine and the ground under it, and nothing of the two providers' own code.",
    ),
    layer('clients-on-schema', CLIENTS, [SCHEMA, WIRE], 'API clients know the wire and values, nothing of Terraform.'),
    layer(
      'resources-on-engine-and-clients',
      '^src/resources/',
      [ENGINE, CLIENTS, SCHEMA, WIRE],
      'A resource module is its schema and its mapping to the API: engine contracts, a client, schema values.',
    ),
    layer(
      'emulators-share-only-the-wire',
      '^src/emulators/',
      [WIRE],
      'An emulator judges the client, so it shares only the contract (proto/ through src/wire), never its code.',
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
      from: { path: '^(src|scripts)/' },
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
