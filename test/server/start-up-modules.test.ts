/**
 * Terraform starts a provider three to four times per command, and most starts only validate or
 * plan: the API clients' libraries (zod's schemas, vdb's gRPC client) load when the provider is configured,
 * never when its definitions load (README "Benchmarks"). A resource that imports a constant from a
 * client module that builds zod schemas breaks this silently, so the rule is checked over every
 * resource of both providers: the module graph loaded by each provider's definitions.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(process.cwd());
/** Libraries only a configured provider needs. */
const CONFIGURE_TIME_LIBRARIES = ['zod', '@grpc/grpc-js'];

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

describe('start-up loads no configure-time library', function () {
  this.timeout(60_000);
  // The go-plugin server is node:http2 (src/server/grpc-server.ts) and sec's API is HTTP: no gRPC
  // library is in sec's executable at all (README, "Benchmarks": refresh against a Go provider).
  it('sec: its executable bundle holds no gRPC or HTTP client library', () => {
    const { sources } = JSON.parse(
      readFileSync(join(ROOT, 'dist', 'bundle', 'terraform-provider-sec.cjs.map'), 'utf8'),
    ) as { sources: string[] };
    expect(sources.some((source) => source.includes('src/server/grpc-server.ts'))).to.equal(true);
    expect(sources.filter((source) => /node_modules\/(@grpc|undici)\//.test(source))).to.deep.equal([]);
  });
  for (const name of ['sec', 'vdb']) {
    it(`${name}: its definitions (every resource, data source and function) load neither ${CONFIGURE_TIME_LIBRARIES.join(' nor ')}`, () => {
      const loaded = modulesLoadedBy(join(ROOT, 'dist', 'src', 'resources', name, 'index.js'));
      // The graph is real: the definitions and the engine were resolved.
      expect(loaded.some((url) => url.includes('/dist/src/engine/'))).to.equal(true);
      const offending = loaded.filter((url) =>
        CONFIGURE_TIME_LIBRARIES.some((lib) => url.includes(`/node_modules/${lib}/`)),
      );
      expect(offending, 'configure-time libraries resolved at start-up').to.deep.equal([]);
    });
  }
});
