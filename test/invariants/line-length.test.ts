/**
 * No line in src/ or packages/framework/src/ is longer than 120 characters (ARCHITECTURE.md, "Style"). Biome formats
 * code to
 * that width but cannot break strings, templates or comments; this holds those too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const MAX_LINE = 120;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('line length', () => {
  it(`no line in src/ or packages/framework/src/ is longer than ${MAX_LINE} characters`, () => {
    const files = [...sourceFiles('src'), ...sourceFiles('packages/framework/src')];
    expect(files.length).to.be.greaterThan(100);
    const long = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > MAX_LINE ? [`${file}:${i + 1} (${line.length})`] : [])),
    );
    expect(long, long.slice(0, 20).join('\n')).to.deep.equal([]);
  });
});
