/**
 * journal: the create records alone (packages/framework/src/engine/journal/create-journal.ts), without Terraform or a
 * platform,
 * in the file system they are kept on: one process writes down N creates, ten at a time (each sent,
 * answered and returned, as an apply does), and shuts down; the next retires each (its object shown
 * tracked, as the plan after an apply does); the one after lists what is left (which removes a log
 * whose records all ended). Then, in a directory of its own, a run killed after its N creates were
 * answered, and the re-run whose every create opens its records afresh before sending anything (as a
 * recovery does, packages/framework/src/engine/creates/create-records.ts). Each step in a process of its own, CPU and
 * wall
 * per resource. What the records cost an apply beside everything else is the `unrecorded` side of
 * `scale --against-go`.
 *
 * With --beside DIR another built checkout's journal runs in the same turns (the order flips every
 * repetition), so a change's effect shows side by side. --dir puts the records elsewhere than the
 * system's temporary directory (a journaled file system, tmpfs).
 *
 * Usage: npm run bench -- journal [--count N] [--reps R] [--dir D] [--beside DIR]   (defaults: 1000, 5)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machine, median, REPO_ROOT, sizeFlags } from './util.js';

const STEPS = ['apply', 'retire', 'listing', 'recovery'] as const;

/** One step in a process of its own: prints `cpuMicros wallMicros`, each per resource. */
const STEP = `
const [, modulePath, dir, step, countText] = process.argv;
const { CreateJournal, digest, journalPlace } = await import(modulePath);
const count = Number(countText);
const open = (place) => {
  const journal = new CreateJournal('bench', journalPlace({ namespace: 'keel', name: 'bench' }, {}, place));
  journal.useApi('https://bench.example');
  return journal;
};
const entry = (i) => ({ type: 'bench_thing', key: digest('key ' + i), settings: digest('settings ' + i) });
if (step === 'recovery') {
  // The killed run: its creates answered, no Shutdown.
  const killed = open(dir + '-killed');
  for (let i = 0; i < count; i++) {
    const handle = await killed.sent(entry(i), []);
    await killed.answered(handle, 'id-' + i, false);
    await killed.finish(handle, 'returned');
  }
  await killed.flush();
}
const journal = open(step === 'recovery' ? dir + '-killed' : dir);
const cpu = process.cpuUsage();
const wall = performance.now();
if (step === 'recovery') {
  for (let i = 0; i < count; i++) if (await journal.hasRecords(entry(i))) await journal.openRecords(entry(i));
} else if (step === 'apply') {
  let next = 0;
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (next < count) {
      const i = next++;
      await journal.hasRecords(entry(i));
      const handle = await journal.sent(entry(i), []);
      await new Promise((resolve) => setImmediate(resolve));
      await journal.answered(handle, 'id-' + i, false);
      await journal.finish(handle, 'returned');
    }
  }));
} else if (step === 'retire') {
  for (let i = 0; i < count; i++) journal.seen('bench_thing', 'id-' + i, 'tracked');
} else await journal.hasRecords(entry(0));
await journal.flush();
await journal.ended();
const used = process.cpuUsage(cpu);
const problem = journal.takeProblem();
if (problem) throw new Error(problem);
console.log(((used.user + used.system) / count).toFixed(1), (((performance.now() - wall) * 1000) / count).toFixed(1));
`;

export async function journalBench(args: string[]): Promise<void> {
  let base = tmpdir();
  const { count, reps, beside } = sizeFlags(
    args,
    'journal [--count N] [--reps R] [--dir D] [--beside DIR]',
    { count: 1000, reps: 5 },
    {
      '--dir': (value) => {
        base = value;
      },
    },
  );
  // The journal part's face; a checkout built before the engine had parts has the journal at engine/create-journal.js.
  const module = (root: string) => {
    const face = join(root, 'dist', 'packages', 'framework', 'src', 'engine', 'journal', 'index.js');
    return pathToFileURL(
      existsSync(face) ? face : join(root, 'dist', 'packages', 'framework', 'src', 'engine', 'create-journal.js'),
    ).href;
  };
  const sides = [
    { label: 'this checkout', module: module(REPO_ROOT) },
    ...(beside ? [{ label: beside, module: module(beside) }] : []),
  ];
  const figures = new Map<string, { cpu: number[]; wall: number[] }>();
  for (let rep = 0; rep < reps; rep++) {
    for (const side of rep % 2 === 0 ? sides : [...sides].reverse()) {
      const dir = mkdtempSync(join(base, 'keel-journal-bench-'));
      try {
        for (const step of STEPS) {
          const out = execFileSync(
            process.execPath,
            ['--input-type=module', '-e', STEP, '--', side.module, dir, step, String(count)],
            { encoding: 'utf8' },
          );
          const [cpu, wall] = out.trim().split(' ').map(Number) as [number, number];
          const key = `${side.label}\0${step}`;
          const held = figures.get(key) ?? { cpu: [], wall: [] };
          held.cpu.push(cpu);
          held.wall.push(wall);
          figures.set(key, held);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(`${dir}-killed`, { recursive: true, force: true });
      }
    }
  }
  console.log(
    `\njournal: the create records alone, ${count} resources, ten creates at a time, in ${base}, ` +
      `medians of ${reps} — ${machine()}`,
  );
  console.log(`  µs a resource, CPU / wall: ${sides.map((s) => s.label).join(' | ')}`);
  const width = Math.max(...sides.map((s) => s.label.length), 14);
  for (const step of STEPS) {
    const cells = sides.map((side) => {
      const { cpu, wall } = figures.get(`${side.label}\0${step}`)!;
      return `${median(cpu).toFixed(0)} / ${median(wall).toFixed(0)} µs`.padEnd(width);
    });
    console.log(`  ${step.padEnd(8)} ${cells.join('  ')}`);
  }
}
