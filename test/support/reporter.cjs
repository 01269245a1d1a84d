// Mocha's spec reporter plus, at the end, the files that had a failing test ("Failing files: …"), each
// test file's wall time (longest first) and one plain closing line, "N passed, N failed, N skipped",
// that CI reads. TEST_TIMES_FILE, when set, also gets
// the times as JSON ({ "<file>": seconds }), which scripts/test-lanes.mjs reads to balance its lanes.
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');
const Mocha = require('mocha');

/** Files listed by name in the closing table; the rest are summed on one line. */
const LISTED_FILES = 40;

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const seconds = new Map();
    const failedFiles = new Set();
    runner.on('fail', (test) => {
      let at = test;
      while (at && !at.file) at = at.parent;
      if (at?.file) failedFiles.add(relative(process.cwd(), at.file));
    });
    // A file's top-level suites (and the root's hooks around them) run one after another, so a
    // file's time is the sum of its top-level suites' spans.
    runner.on('suite', (suite) => {
      if (suite.file && suite.parent?.root) started.set(suite, process.hrtime.bigint());
    });
    runner.on('suite end', (suite) => {
      const start = started.get(suite);
      if (start === undefined) return;
      const file = relative(process.cwd(), suite.file);
      seconds.set(file, (seconds.get(file) ?? 0) + Number(process.hrtime.bigint() - start) / 1e9);
    });
    runner.once('end', () => {
      const s = runner.stats;
      if (failedFiles.size > 0) process.stdout.write(`\nFailing files: ${[...failedFiles].join(', ')}\n`);
      const byTime = [...seconds].sort((a, b) => b[1] - a[1]);
      if (byTime.length > 1) {
        const lines = byTime.slice(0, LISTED_FILES).map(([file, t]) => `  ${t.toFixed(1).padStart(7)} s  ${file}`);
        const rest = byTime.slice(LISTED_FILES);
        if (rest.length > 0) {
          const restTime = rest.reduce((sum, [, t]) => sum + t, 0);
          lines.push(`  ${restTime.toFixed(1).padStart(7)} s  the other ${rest.length} files`);
        }
        process.stdout.write(`\nTime per test file (wall, ${byTime.length} files):\n${lines.join('\n')}\n\n`);
      }
      if (process.env.TEST_TIMES_FILE) {
        const times = Object.fromEntries(byTime.map(([file, t]) => [file, Math.round(t * 10) / 10]));
        writeFileSync(process.env.TEST_TIMES_FILE, `${JSON.stringify(times, null, 2)}\n`);
      }
      process.stdout.write(`${s.passes} passed, ${s.failures} failed, ${s.pending} skipped\n`);
    });
  }
}

module.exports = SpecWithTotals;
