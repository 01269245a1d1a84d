/**
 * How an author's executable serves a provider definition: `serve(definition)` is the whole entry
 * point. It does go-plugin's handshake (with automatic mutual TLS) and serves tfplugin6 on the
 * definition's engine, made on the first call that needs it.
 */
import type { Fields } from './schema/define.js';
import { declarationProblems, type ProviderDef } from './engine/contracts/index.js';
import { createLogger } from './server/log.js';
import { runProviderMain } from './server/main.js';
import { PROVIDER_SERVICE_RPCS } from './server/rpcs.js';
import { providerServiceOf, refusingService, type ServiceOptions } from './service.js';

/** A definition that names its source address: `namespace` with its `name` (`acme/kv`). */
export type ServedProvider<F extends Fields = any, C = any> = ProviderDef<F, C> & { readonly namespace: string };

/**
 * A provider's definition: its source address (`namespace`, `name`, `hostname` when not the public
 * registry), version, settings and `configure`, which makes the client every operation gets
 * (`ctx.client`), and what it serves. Returns its argument, typed.
 */
export const provider = <F extends Fields, C>(definition: ServedProvider<F, C>): ServedProvider<F, C> => definition;

export interface ServeOptions extends ServiceOptions {
  /** The command line; `process.argv.slice(2)` when not given (`--version`, `--debug`). */
  readonly argv?: string[];
}

/**
 * `--docs DIR [--examples DIR]`: writes the reference pages (release/pages.ts) into DIR and ends, as
 * `keel-provider docs` asks; the pages' code is loaded for this alone.
 */
function writeDocs(definition: ServedProvider, argv: readonly string[]): void {
  const argumentOf = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 && argv[at + 1] !== undefined && !argv[at + 1]!.startsWith('--') ? argv[at + 1] : undefined;
  };
  const docsDir = argumentOf('--docs');
  const fail = (message: string) => {
    process.stderr.write(`terraform-provider-${definition.name}: ${message}\n`);
    process.exitCode = 1;
  };
  if (docsDir === undefined) return fail('--docs needs the folder to write the pages into');
  const problems = declarationProblems(definition);
  if (problems.length > 0) return fail(`its declarations are wrong:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  import('./release/write-pages.js')
    .then(({ writeProviderPages }) => {
      const written = writeProviderPages(definition, docsDir, argumentOf('--examples'));
      process.stdout.write(`${JSON.stringify({ pages: written.length })}\n`);
    })
    .catch((error: unknown) =>
      fail(`cannot write its pages: ${error instanceof Error ? error.message : String(error)}`),
    );
}

/**
 * Serves the provider until Terraform (or OpenTofu, or Pulumi's bridge) ends it. A failure to start
 * is written to stderr and ends the process with exit code 1. Call it once, from the module the
 * executable runs; logs go to stderr, at the level `TF_LOG_PROVIDER_<NAME>` or `TF_LOG_PROVIDER` sets.
 */
export function serve(definition: ServedProvider, options: ServeOptions = {}): void {
  const argv = options.argv ?? process.argv.slice(2);
  if (argv.includes('--docs')) {
    writeDocs(definition, argv);
    return;
  }
  // A mistake in a declaration is said as the schema call's error, naming its type and field (as
  // terraform-plugin-framework says it), and on stderr; the provider serves nothing else.
  const problems = declarationProblems(definition);
  if (problems.length > 0) {
    const list = problems.map((problem) => `  - ${problem}`).join('\n');
    process.stderr.write(`terraform-provider-${definition.name}: cannot start: its declarations are wrong:\n${list}\n`);
  }
  const identity = { namespace: definition.namespace, name: definition.name, version: definition.version };
  const log = createLogger(definition.name);
  runProviderMain({
    ...identity,
    ...(definition.hostname ? { hostname: definition.hostname } : {}),
    ...(options.argv ? { argv: options.argv } : {}),
    serves: PROVIDER_SERVICE_RPCS,
    loadService: () =>
      problems.length > 0
        ? refusingService(definition.name, problems)
        : providerServiceOf(definition, log, identity, options),
  }).catch((error: unknown) => {
    process.stderr.write(
      `terraform-provider-${definition.name}: cannot start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  });
}
