/**
 * The backup schedule rule is written twice on purpose: the provider's plan check
 * (src/resources/vdb/formats.ts) and the emulator's (src/emulators/vdb/cron.ts), which never imports
 * the provider. Both are held to the one table of examples in docs/api/vdb.md, "Schedule expressions":
 * an expression the page accepts passes both, one it refuses is refused by both. A case added to the
 * page is a case both must meet, so the two cannot drift.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { cronProblem as planCheck } from '../../../src/resources/vdb/formats.js';
import { cronProblem as emulatorCheck } from '../../../src/emulators/vdb/cron.js';

interface Example {
  readonly expression: string;
  readonly accepted: boolean;
  readonly why: string;
}

function pageExamples(): Example[] {
  const page = readFileSync('docs/api/vdb.md', 'utf8');
  const start = page.indexOf('### Schedule expressions');
  const section = page.slice(start, page.indexOf('\n### ', start + 1));
  return [...section.matchAll(/^\| `([^`]+)` \| (yes|no) \| ([^|]+) \|$/gm)].map((m) => ({
    expression: m[1]!,
    accepted: m[2] === 'yes',
    why: m[3]!.trim(),
  }));
}

describe('vdb backup schedules: the plan check and the emulator hold to the examples of docs/api/vdb.md', () => {
  const examples = pageExamples();

  it('the page has examples of both kinds', () => {
    expect(examples.filter((e) => e.accepted)).to.have.length.above(5);
    expect(examples.filter((e) => !e.accepted)).to.have.length.above(10);
  });

  for (const [name, check] of [
    ['the provider (plan time)', planCheck],
    ['the emulator', emulatorCheck],
  ] as const)
    it(`${name} accepts what the page accepts and refuses what it refuses`, () => {
      const wrong = examples
        .filter((e) => (check(e.expression) === undefined) !== e.accepted)
        .map(
          (e) =>
            `${e.expression}: the page says ${e.accepted ? 'accepted' : `refused (${e.why})`}, ${name} ${e.accepted ? `refuses it: ${check(e.expression)}` : 'accepts it'}`,
        );
      expect(wrong, wrong.join('\n')).to.deep.equal([]);
    });
});
