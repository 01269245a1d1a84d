#!/usr/bin/env node
// The test suite, in lanes: `npm test` runs the compiled test files (dist/test/**/*.test.js, as
// .mocharc.json names them) in several mocha processes side by side, each file in one of them. The
// suite spends most of its time waiting (on Terraform, on emulators answering late, on clones
// building), so on a 2-core machine three lanes finish it in about half the time one takes. Test files
// share nothing a lane could trip on: ports are ephemeral, every workspace, home and cache a test
// writes is a directory of its own.
//
// Which file goes where: the costliest first (its CPU seconds: the suite is bound by its cores, not by
// its lanes), to the lane free soonest, as long as the files running keep no more cores busy than the
// machine has (test/support/test-times.json holds each file's wall
// time alone and how many cores it keeps busy, measured by `TEST_TIMES_FILE=... TEST_LANES=1 npm test`;
// a file it does not know counts as 5 s and half a core). So a file that mostly waits runs beside a
// busy one, and two busy ones do not starve each other. Short files go together in one mocha process,
// so that start-up is paid once.
//
// Each job's output is printed whole when it ends, with its time; at the end, every file's wall time
// (longest first), each lane's, mocha's account of every failure again, and the line CI reads: "N passed, N failed, N skipped".
//
//   node scripts/test-run.mjs [dist/test/...test.js ...]    (npm test: every file)
//   TEST_LANES=N        lanes (default: cores + 2); the cores kept busy stay within the cores
//   TEST_TIMES_FILE=F   also write each file's wall time and CPU share there, as test-times.json holds them
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TIMES = join(ROOT, 'test', 'support', 'test-times.json');
/** Files shorter than this run together, in jobs of at most BATCH_SECONDS (fewer for a short run). */
const SHORT_SECONDS = 8;
const BATCH_SECONDS = 40;
/** What a file the table does not know is taken to cost. */
const UNKNOWN = { seconds: 5, cpu: 0.5 };

const cores = availableParallelism();
const lanes = Math.max(1, Number(process.env.TEST_LANES) || cores + 2);
/**
 * The cores the running files may keep busy together, over the count: the shares are averages over a
 * file's whole run, and a file that builds, then waits on Terraform, qemu or an emulator, leaves its
 * cores idle for much of it. Measured on 2 cores, clean clones, the whole suite: 1.1 left 10% of the
 * cores' time idle (1,636 s); 1.5 left 6% (1,518 s); 2 cost 94 s more CPU in contention (1,570 s).
 */
const budget = cores * 1.5;
const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => relative(ROOT, f)) : testFiles('dist/test');
const known = existsSync(TIMES) ? JSON.parse(readFileSync(TIMES, 'utf8')) : {};
const cost = (file) => ({ ...UNKNOWN, ...known[file] });

const jobs = makeJobs(files);
const scratch = mkdtempSync(join(tmpdir(), 'keel-test-run-'));
const started = Date.now();
const results = { passed: 0, failed: 0, skipped: 0, crashed: [], failures: [] };
const fileTimes = {};
const laneSeconds = Array(lanes).fill(0);
let coresBusy = 0;

process.stdout.write(`${files.length} test files in ${jobs.length} jobs, ${lanes} lanes on ${cores} cores\n`);
await Promise.all(Array.from({ length: lanes }, (_, lane) => runLane(lane)));
rmSync(scratch, { recursive: true, force: true });
report();
process.exit(results.failed > 0 || results.crashed.length > 0 ? 1 : 0);

function testFiles(dir) {
  return readdirSync(join(ROOT, dir), { recursive: true })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => join(dir, f))
    .sort();
}

/** Long files one per job, short ones together; the costliest first. */
function makeJobs(all) {
  const long = all.filter((f) => cost(f).seconds >= SHORT_SECONDS);
  const short = all.filter((f) => cost(f).seconds < SHORT_SECONDS);
  const out = long.map((f) => ({ files: [f], seconds: cost(f).seconds, cpu: cost(f).cpu }));
  // A short run (test:quick) gets smaller batches, so that every lane has work.
  const total = all.reduce((a, f) => a + cost(f).seconds, 0);
  const batchSeconds = Math.min(BATCH_SECONDS, Math.max(10, total / (lanes * 3)));
  let batch = { files: [], seconds: 0, cpu: 0 };
  const close = () => {
    batch.cpu = batch.files.reduce((a, f) => a + cost(f).cpu * cost(f).seconds, 0) / Math.max(batch.seconds, 0.1);
    out.push(batch);
    batch = { files: [], seconds: 0, cpu: 0 };
  };
  for (const f of short) {
    batch.files.push(f);
    batch.seconds += cost(f).seconds;
    if (batch.seconds >= batchSeconds) close();
  }
  if (batch.files.length > 0) close();
  // By CPU seconds: ordered by wall time, a file that keeps the cores busy waited for the waiting
  // ones and ran last, alone (simulated on the record's times: 1,570 s against 1,525 s).
  return out.sort((a, b) => b.seconds * b.cpu - a.seconds * a.cpu);
}

/** The costliest job that fits beside the running ones; any job when none runs. */
function nextJob() {
  const at = jobs.findIndex((j) => coresBusy === 0 || coresBusy + j.cpu <= budget);
  return at < 0 ? undefined : jobs.splice(at, 1)[0];
}

async function runLane(lane) {
  for (;;) {
    const job = nextJob();
    if (!job) {
      if (jobs.length === 0) return;
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    coresBusy += job.cpu;
    const t0 = Date.now();
    try {
      await runJob(job, lane);
    } finally {
      coresBusy -= job.cpu;
      laneSeconds[lane] += (Date.now() - t0) / 1000;
    }
  }
}

function runJob(job, lane) {
  const name = job.files.length === 1 ? job.files[0] : `${job.files.length} files (${job.files[0]} …)`;
  const times = join(scratch, `times-${lane}-${Date.now()}.json`);
  const mocha = join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const args = ['--no-config', '--reporter', join(ROOT, 'test/support/reporter.cjs'), '--timeout', '60000'];
  // /usr/bin/time reports the CPU of the job and every process it waited for (Terraform, providers).
  const timed = existsSync('/usr/bin/time');
  const cpuFile = join(scratch, `cpu-${lane}-${Date.now()}`);
  const command = timed ? '/usr/bin/time' : process.execPath;
  const argv = timed
    ? ['-f', '%U %S', '-o', cpuFile, process.execPath, mocha, ...args, ...job.files]
    : [mocha, ...args, ...job.files];
  process.stdout.write(`▶ [lane ${lane + 1}] ${name}\n`);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, argv, {
      cwd: ROOT,
      env: { ...process.env, TEST_TIMES_FILE: times, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      const seconds = (Date.now() - t0) / 1000;
      const output = Buffer.concat(chunks).toString('utf8');
      const totals = /^(\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(output);
      if (totals) {
        results.passed += Number(totals[1]);
        results.failed += Number(totals[2]);
        results.skipped += Number(totals[3]);
      }
      // Mocha's account of each failure, repeated at the end so that a log's tail names what failed.
      const failing =
        /\n[^\n]*?\b\d+ failing[\s\S]*?(?=\n+Failing files: |\n+Time per test file|\n+\d+ passed, \d+ failed)/.exec(
          output,
        );
      // The files that failed by name, not the job's first file (a job runs several).
      const failedFiles = /^Failing files: (.*)$/m.exec(output)?.[1];
      if (failing) results.failures.push(`${failedFiles ?? name}:${failing[0]}`);
      if (!totals || (code !== 0 && Number(totals?.[2] ?? 0) === 0))
        results.crashed.push(`${name}: exit ${code ?? signal}${totals ? '' : ', no totals line'}`);
      let cpu = null;
      try {
        const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
        cpu = user + system;
      } catch {}
      try {
        const perFile = JSON.parse(readFileSync(times, 'utf8'));
        const total = Object.values(perFile).reduce((a, b) => a + b, 0) || 1;
        for (const [file, wall] of Object.entries(perFile))
          fileTimes[file] = { seconds: wall, cpu: cpu === null ? null : round(cpu / total) };
      } catch {}
      process.stdout.write(
        `${output.replace(/\n*Time per test file[\s\S]*?\n\n/, '\n')}◀ [lane ${lane + 1}] ${name}: ${seconds.toFixed(1)} s` +
          `${cpu === null ? '' : `, ${cpu.toFixed(1)} s CPU`}\n\n`,
      );
      resolve();
    });
  });
}

function round(x) {
  return Math.round(x * 100) / 100;
}

function report() {
  const wall = (Date.now() - started) / 1000;
  const byTime = Object.entries(fileTimes).sort((a, b) => b[1].seconds - a[1].seconds);
  const lines = byTime
    .slice(0, 40)
    .map(
      ([f, t]) => `  ${t.seconds.toFixed(1).padStart(7)} s  ${t.cpu === null ? '     ' : `${t.cpu.toFixed(2)}c`}  ${f}`,
    );
  const rest = byTime.slice(40);
  if (rest.length > 0)
    lines.push(
      `  ${rest
        .reduce((a, [, t]) => a + t.seconds, 0)
        .toFixed(1)
        .padStart(7)} s         the other ${rest.length} files`,
    );
  process.stdout.write(
    `\nTime per test file (wall; c: cores kept busy on average), ${byTime.length} files:\n${lines.join('\n')}\n` +
      `Lanes: ${laneSeconds.map((s) => `${s.toFixed(0)} s`).join(', ')}; the whole run ${wall.toFixed(0)} s\n`,
  );
  if (process.env.TEST_TIMES_FILE) {
    const table = Object.fromEntries(
      byTime.map(([f, t]) => [f, { seconds: round(t.seconds), ...(t.cpu === null ? {} : { cpu: t.cpu }) }]),
    );
    writeFileSync(process.env.TEST_TIMES_FILE, `${JSON.stringify(table, null, 2)}\n`);
  }
  for (const failure of results.failures) process.stdout.write(`\nfailed in ${failure}\n`);
  for (const crash of results.crashed) process.stdout.write(`crashed: ${crash}\n`);
  process.stdout.write(`${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped\n`);
}
