/**
 * Writes the request-sequence fixtures (terraform-requests.ts) to test/protocol/fixtures/, one file
 * per sequence. Run from the repository root after a build: `node dist/test/protocol/write-fixtures.js`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixtures, type Fixture } from './terraform-requests.js';
import { buildActionFixtures } from './action-requests.js';

export const FIXTURES_DIR = join(process.cwd(), 'test', 'protocol', 'fixtures');

export const fixtureText = (fixture: unknown): string => `${JSON.stringify(fixture, null, 2)}\n`;

/** Every sequence: identity, list and query (terraform-requests.ts), then actions (action-requests.ts). */
export async function allFixtures(): Promise<Fixture[]> {
  return [...(await buildFixtures()), ...(await buildActionFixtures())];
}

if (process.argv[1]?.endsWith('write-fixtures.js')) {
  for (const fixture of await allFixtures()) {
    writeFileSync(join(FIXTURES_DIR, `${fixture.name}.json`), fixtureText(fixture));
    console.log(`wrote ${fixture.name}.json (${fixture.steps.length} requests)`);
  }
}
