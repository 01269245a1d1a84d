/**
 * The hand-written guides (README.md, CONTRIBUTING.md, ARCHITECTURE.md, docs/*.md) against the
 * repository they describe: every relative link and heading anchor resolves, every repository path
 * they quote exists, and the commands and options they tell people to run are the ones the scripts
 * take (the two set-up commands CI and reviewers run, `npm run …`, the benchmarks' and the release's
 * options, the emulators' flags, the release platforms and the Node version inside the packages).
 * Generated reference pages (docs/sec, docs/vdb) are held to the schema by docs.test.ts instead.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { FAULT_KINDS } from '../../src/emulators/core/fault-profile.js';
import { parseEmulatorArgs } from '../../src/emulators/cli.js';
import { NODE_VERSION, PLATFORMS } from '../../packages/framework/src/release/runtimes.js';

const ROOT = process.cwd();
const GUIDES = [
  'README.md',
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** Code that is gone: the benchmark history may name it (saying so), nothing else may. */
const REMOVED = [
  'packages/framework/src/server/http2/',
  'src/clients/sec/http1.ts',
  'packages/framework/src/server/v8-tuning.ts',
  // Moved to src/wire/, where the vdb emulator serves on it too.
  'packages/framework/src/server/grpc-server.ts',
];
const HISTORY = 'docs/benchmarks.md';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** The text outside fenced code blocks, line numbers kept. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ''));
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(read(file)).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The `npm run bench -- …` lines of the guides' shell blocks, continuation lines joined. */
function benchCommands(text: string): string[] {
  const blocks = [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.replace(/\\\n\s*/g, ' '));
  return blocks.flatMap((block) =>
    block
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter((line) => line.startsWith('npm run bench -- ')),
  );
}

function runBench(args: string[]): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'scripts', 'bench', 'main.js'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the guides (README, CONTRIBUTING, ARCHITECTURE, docs/*.md)', () => {
  it('exist, and the README links the others', () => {
    expect(GUIDES).to.include.members(['docs/benchmarks.md', 'docs/releases.md']);
    const readme = read('README.md');
    for (const linked of ['CONTRIBUTING.md', 'ARCHITECTURE.md', 'docs/benchmarks.md', 'docs/releases.md']) {
      expect(readme, `README links ${linked}`).to.include(`](${linked}`);
    }
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of GUIDES) {
      const text = prose(read(file));
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        checked++;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : normalize(join(dirname(file), path));
        const where = `${file}:${lineOf(text, match.index)} → ${target}`;
        if (relative(ROOT, join(ROOT, resolved)).startsWith('..') || !existsSync(join(ROOT, resolved))) {
          broken.push(`${where}: no such file`);
        } else if (anchor !== undefined && !anchorsOf(resolved).has(anchor)) {
          broken.push(`${where}: no heading #${anchor} in ${resolved}`);
        }
      }
    }
    expect(checked, 'links checked').to.be.greaterThan(15);
    expect(broken, broken.join('\n')).to.deep.equal([]);
  });

  it('quote only repository paths that exist; removed code only in the benchmark history', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of GUIDES) {
      const text = read(file);
      for (const match of text.matchAll(/`((?:src|test|scripts|docs|examples|bin|proto|\.ci)\/[^`\s<>*{}…|]*)`/g)) {
        const path = match[1]!;
        if (REMOVED.some((gone) => path.startsWith(gone))) {
          if (file !== HISTORY) missing.push(`${file}:${lineOf(text, match.index)}: ${path} was removed`);
          continue;
        }
        checked++;
        if (!existsSync(join(ROOT, path))) missing.push(`${file}:${lineOf(text, match.index)}: ${path}`);
      }
    }
    for (const gone of REMOVED) expect(existsSync(join(ROOT, gone)), `${gone} is gone`).to.equal(false);
    expect(checked, 'paths checked').to.be.greaterThan(50);
    expect(missing, missing.join('\n')).to.deep.equal([]);
  });

  it('give the two set-up commands that CI runs, and only npm scripts that exist', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines: { node: string } };
    const setup = /## Set-up: two commands\n\n```sh\n([^\n]*)\n([^\n]*)\n```/.exec(read('README.md'));
    expect(setup, 'the Set-up section with its two commands').to.not.equal(null);
    expect(setup![1]!.replace(/\s+#.*$/, '')).to.equal('npm ci && npm run build && npm run demo');
    expect(setup![2]!.replace(/\s+#.*$/, '')).to.equal('npm test');
    expect(pkg.scripts.test).to.match(/npm run lint && npm run build && node scripts\/test-run\.mjs$/);
    expect(read('.ci/run').trimEnd().split('\n').at(-1)).to.equal('npm test');
    const unknown = GUIDES.flatMap((file) =>
      [...read(file).matchAll(/npm run (?:--silent )?([a-z][\w-]*)/g)]
        .map((m) => m[1]!)
        .filter((script) => !(script in pkg.scripts))
        .map((script) => `${file}: npm run ${script}`),
    );
    expect(unknown, unknown.join('\n')).to.deep.equal([]);
    expect(pkg.engines.node).to.equal('>=20.19');
    expect(read('README.md')).to.include('Node.js ≥ 20.19');
  });

  it('name the release platforms and the Node version the release build uses', () => {
    const readme = read('README.md');
    const lock = /terraform providers lock [^\n]*\\\n((?:[^\n]*\\\n)*[^\n]*)/.exec(readme);
    expect(lock, 'the README shows `terraform providers lock` for every platform').to.not.equal(null);
    const locked = [...lock![0].matchAll(/-platform=(\w+)/g)].map((m) => m[1]);
    expect(locked).to.have.members([...PLATFORMS]);
    for (const platform of PLATFORMS) expect(readme).to.include(`\`${platform}\``);
    expect(NODE_VERSION.split('.')[0]).to.equal('22');
    expect(readme).to.include('Node 22');
    expect(read('docs/releases.md')).to.include(`Node ${NODE_VERSION}`);
    const stale = GUIDES.filter((file) => file !== HISTORY && /\bNode 20\.\d+\.\d+|linux_amd64 only/.test(read(file)));
    expect(stale, 'guides naming an old shipped runtime').to.deep.equal([]);
  });

  it("document the release's options as its command reads them", () => {
    const documented = [...read('docs/releases.md').matchAll(/npm run release -- ([^#\n]*)/g)].map((m) => m[1]!.trim());
    expect(documented.length).to.be.greaterThan(1);
    for (const args of documented) {
      // An unknown argument after the documented ones: the command stops at it, before building.
      const r = spawnSync(
        process.execPath,
        [
          join(ROOT, 'packages', 'framework', 'dist', 'release', 'cli.js'),
          'release',
          '--config',
          join(ROOT, 'dist', 'scripts', 'release', 'project.js'),
          ...args.split(/\s+/),
          '--zz-unknown',
        ],
        {
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(r.status, args).to.equal(2);
      expect(r.stderr, args).to.match(/^unknown argument "--zz-unknown"/);
    }
  });

  it('document the benchmarks and their options as the benchmark runner reads them', function () {
    this.timeout(120_000);
    const usage = runBench([]).output;
    const names = /<([a-z|-]+)>/.exec(usage)?.[1]?.split('|');
    expect(names, usage).to.include.members(['handshake', 'scale']);
    const mentioned = GUIDES.flatMap((file) =>
      [...read(file).matchAll(/npm run bench -- ([a-z-]+)/g)].map((m) => m[1]!),
    );
    expect(mentioned.filter((name) => !names!.includes(name))).to.deep.equal([]);
    const commands = benchCommands(read(HISTORY));
    expect(commands.map((c) => c.split(/\s+/)[4])).to.include.members(names!);
    for (const command of commands) {
      const [, , , , name, ...rest] = command.split(/\s+/);
      const lead = rest[0] === '--against-go' ? ['--against-go'] : [];
      const flags = [...rest.join(' ').matchAll(/--[a-z][a-z-]*/g)]
        .map((m) => m[0])
        .filter((f) => f !== '--against-go');
      // Each documented flag with a value, then an unknown one: the parser must stop at the unknown one only.
      const r = runBench([name!, ...lead, ...flags.flatMap((flag) => [flag, '1']), '--zz-unknown']);
      expect(r.output, command).to.match(/Unknown option '--zz-unknown'/);
    }
  });

  it("document the emulators' flags and fault kinds as the emulator reads them", () => {
    const readme = read('README.md');
    const kinds = /--fault-kinds ([a-z,-]+)/.exec(readme)?.[1]?.split(',');
    expect(kinds).to.deep.equal([...FAULT_KINDS]);
    // npm's own `--silent` (before the script's name) is not the emulator's.
    const section = readme
      .slice(readme.indexOf('## Emulators for your own tests'), readme.indexOf('## Debugging'))
      .replaceAll(/npm run --silent|`--silent`/g, 'npm run');
    const flags = [...new Set([...section.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]))];
    expect(flags).to.include.members(['--port', '--fault-rate', '--fault-seed', '--fault-kinds']);
    const values: Record<string, string> = { '--fault-rate': '0.2', '--fault-kinds': kinds!.join(',') };
    for (const name of ['sec', 'vdb']) {
      const args = parseEmulatorArgs([name, ...flags.flatMap((flag) => [flag, values[flag] ?? '1'])]);
      expect(args.name).to.equal(name);
    }
  });
});
