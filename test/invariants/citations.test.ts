/**
 * Every citation points at a heading a clone of the repository has. Comments and documents cite our own
 * pages by heading (`docs/api/vdb.md, "Deleting a cluster"`, `docs/decisions.md, "Write-only twins"`),
 * the seeds by their numbered sections (`sec seed §2.17`, test/fixtures/seeds) and RFCs by theirs; a
 * section number of a document kept outside the repository (the specification the providers were
 * written from) would send a contributor to a page they do not have.
 */
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Source files (and our hand-written documents) under `dir`, relative to the root. */
function filesUnder(dir: string, endings: readonly string[]): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, endings);
    return endings.some((ending) => entry.name.endsWith(ending)) ? [path] : [];
  });
}

const CODE = ['.ts', '.mjs', '.cjs'];
/** Where citations are written: code, the .proto files, the documents people write (not generated pages). */
const CITING = [
  ...['src', 'test', 'scripts'].flatMap((dir) => filesUnder(dir, CODE)),
  ...filesUnder('proto', ['.proto']),
  ...['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'test/acceptance/CASES.md'],
  ...filesUnder('docs', ['.md']).filter((file) => !/^docs\/(sec|vdb)\//.test(file)),
];

/** A markdown page's headings, as written after the hashes. */
function headingsOf(file: string): Set<string> {
  return new Set(
    read(file)
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => line.replace(/^#+ /, '').trim()),
  );
}

/** The seeds' numbered sections (`### 2.17 Nested types` → `2.17`), per provider. */
function seedSections(): Record<'sec' | 'vdb', Set<string>> {
  const sections = (file: string) =>
    new Set(
      read(file)
        .split('\n')
        .flatMap((line) => /^#{1,6} (\d+(?:\.\d+)*)\b/.exec(line)?.[1] ?? []),
    );
  return {
    sec: sections('test/fixtures/seeds/000_da722bde0f6638a7.txt'),
    vdb: sections('test/fixtures/seeds/001_a2f757de5f9a30af.txt'),
  };
}

/** `docs/<page>.md, "<heading>"`, the quotes escaped or not (inside a string literal). */
const PAGE_CITATION = /\b(docs\/[\w/.-]+\.md), \\?"([^"\\]+)\\?"/g;
/** `sec seed §2.17`, `vdb seed §2.2, §3`. */
const SEED_CITATION = /\b(sec|vdb) seed (§[\d.]*\d(?:(?:,| and|–) ?§[\d.]*\d)*)/g;
/** An RFC's own sections: `RFC 9113 §8.1`, `RFC 5280 §4.1.2.5.1`. */
const RFC_CITATION = /\bRFC \d+ §[\d.]*\d(?:(?:,| and|–) ?§[\d.]*\d)*/g;

describe('citations: every one names a heading of a page in the repository', () => {
  const thisFile = join('test', 'invariants', 'citations.test.ts');
  const sources = CITING.filter((file) => file !== thisFile);
  /** Each source's text, read once for the four checks. */
  const texts = new Map<string, string>();
  before(() => {
    for (const file of sources) texts.set(file, read(file));
  });

  it('every `docs/<page>.md, "<heading>"` names a heading of that page', () => {
    const pages = new Map<string, Set<string> | undefined>();
    const headings = (page: string) => {
      if (!pages.has(page)) {
        try {
          pages.set(page, headingsOf(page));
        } catch {
          pages.set(page, undefined);
        }
      }
      return pages.get(page);
    };
    const problems: string[] = [];
    const citedPerPage = new Map<string, number>();
    for (const file of sources) {
      for (const [, page, heading] of texts.get(file)!.matchAll(PAGE_CITATION)) {
        citedPerPage.set(page!, (citedPerPage.get(page!) ?? 0) + 1);
        const known = headings(page!);
        if (!known) problems.push(`${file}: cites ${page}, which the repository does not have`);
        else if (!known.has(heading!)) problems.push(`${file}: cites "${heading}", which ${page} has no heading for`);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
    // The pages the code leans on are cited from it, so this test reads the form they are cited in.
    const fewest = { 'docs/decisions.md': 20, 'docs/protocol.md': 10, 'docs/api/sec.md': 10, 'docs/api/vdb.md': 10 };
    for (const [page, count] of Object.entries(fewest))
      expect(citedPerPage.get(page) ?? 0, `citations of ${page}`).to.be.greaterThan(count);
  });

  it('every `sec seed §N` and `vdb seed §N` names a numbered section of that seed (test/fixtures/seeds)', () => {
    const sections = seedSections();
    const problems: string[] = [];
    let cited = 0;
    for (const file of sources)
      for (const [, seed, list] of texts.get(file)!.matchAll(SEED_CITATION))
        for (const [, number] of list!.matchAll(/§([\d.]*\d)/g)) {
          cited++;
          if (!sections[seed as 'sec' | 'vdb'].has(number!))
            problems.push(`${file}: cites ${seed} seed §${number}, which that seed has no section for`);
        }
    expect(problems, problems.join('\n')).to.deep.equal([]);
    expect(cited, 'seed citations read').to.be.greaterThan(0);
  });

  it('no citation of a document kept outside the repository: no `<page>.md §N`, `architecture §N` or bare `§N`', () => {
    const problems: string[] = [];
    for (const file of sources) {
      const lines = texts.get(file)!.split('\n');
      lines.forEach((line, index) => {
        // The specification's own decision list is not in the repository; ours is docs/decisions.md.
        if (/\bDECISIONS\b/.test(line)) problems.push(`${file}:${index + 1}: cites DECISIONS, not docs/decisions.md`);
        const rest = line.replaceAll(RFC_CITATION, '').replaceAll(SEED_CITATION, '');
        if (/§ ?\d/.test(rest)) problems.push(`${file}:${index + 1}: ${line.trim().slice(0, 100)}`);
      });
    }
    expect(problems, `cite a heading of a page in the repository instead:\n${problems.join('\n')}`).to.deep.equal([]);
  });

  it("no tracker's numbers: a rule or a figure stands on what it says and when it was measured", () => {
    const problems: string[] = [];
    for (const file of sources)
      texts
        .get(file)!
        .split('\n')
        .forEach((line, index) => {
          if (/\bissues? #?\d+\b|\bthe issue's\b/i.test(line))
            problems.push(`${file}:${index + 1}: ${line.trim().slice(0, 100)}`);
        });
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
