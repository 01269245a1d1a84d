/**
 * The specification's data that tests read, committed under test/fixtures/ (provenance in its
 * README): the one place that names each file. test/fixtures/<path> is a verbatim copy of
 * ../shared/<path>; test/invariants/fixtures.test.ts checks the copies against ../shared where it
 * is beside the checkout. A missing fixture fails the test that reads it, never skips it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout: this module runs as dist/test/support/fixtures.js. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES_DIR = join(REPO_ROOT, 'test', 'fixtures');
/** The specification beside the checkout, where the fixtures were copied from (absent in most clones). */
export const SHARED_DIR = join(REPO_ROOT, '..', 'shared');

/** Each fixture by what it is: its path under test/fixtures/, the same as under ../shared/. */
export const FIXTURE = {
  /** go-cty 1.12's msgpack and JSON encodings of typed values (format: conformance/README.md). */
  ctyVectors: 'conformance/cty-msgpack-vectors.json',
  /** The sec provider as its Pulumi wrapper describes it, version 2.2.0. */
  secSeed: 'seeds/000_da722bde0f6638a7.txt',
  /** The vdb provider as its Pulumi wrapper describes it, version 1.19.2. */
  vdbSeed: 'seeds/001_a2f757de5f9a30af.txt',
} as const;

export type FixtureName = keyof typeof FIXTURE;

/** Each provider's seed document. */
export const SEED_FIXTURE = { sec: 'secSeed', vdb: 'vdbSeed' } as const satisfies Record<string, FixtureName>;

export function fixturePath(name: FixtureName, fixturesDir = FIXTURES_DIR): string {
  return join(fixturesDir, FIXTURE[name]);
}

/** A fixture's text; throws, naming the file, if it is not in the checkout. */
export function readFixture(name: FixtureName, fixturesDir = FIXTURES_DIR): string {
  const path = fixturePath(name, fixturesDir);
  if (!existsSync(path)) {
    const shown = path.startsWith(REPO_ROOT) ? relative(REPO_ROOT, path) : path;
    throw new Error(
      `test fixture ${name} is missing: ${shown} is not in this checkout ` +
        `(it is committed; test/fixtures/README.md says where it comes from)`,
    );
  }
  return readFileSync(path, 'utf8');
}

/**
 * For suites that need a fixture while they are declared (to make one test per entry): the parsed
 * value, or the error to throw from the suite's `before` hook, so the suite fails and the others run.
 */
export function loadAtDeclaration<T>(
  name: FixtureName,
  parse: (text: string) => T,
  fixturesDir = FIXTURES_DIR,
): { value: T; error?: undefined } | { value?: undefined; error: Error } {
  try {
    return { value: parse(readFixture(name, fixturesDir)) };
  } catch (e) {
    return { error: e instanceof Error ? e : new Error(String(e)) };
  }
}
