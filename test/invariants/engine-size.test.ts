/**
 * The engine stays small (ARCHITECTURE.md, "Inside the engine"): no file in packages/framework/src/engine is over
 * MAX_ENGINE_LINES lines, so that each part reads alone. A part that grows past it is split by what it
 * holds (a rule into its own module, as set-elements.ts left validate.ts), not let run on.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_ENGINE_LINES = 350;

describe('the engine stays small', () => {
  it(`no file in packages/framework/src/engine is over ${MAX_ENGINE_LINES} lines`, () => {
    const files = readdirSync('packages/framework/src/engine', { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join('packages/framework/src/engine', f));
    expect(files.length).to.be.greaterThan(20);
    const long = files
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').trimEnd().split('\n').length }))
      .filter((f) => f.lines > MAX_ENGINE_LINES)
      .map((f) => `${f.file}: ${f.lines} lines (at most ${MAX_ENGINE_LINES}; split it by what it holds)`);
    expect(long, long.join('\n')).to.deep.equal([]);
  });
});
