/**
 * Every benchmark that drives the providers runs to its table at its smallest size: a change of
 * behaviour that breaks one (the sessions bench's two sides made objects of the same names, which the
 * plan refuses as untracked look-alikes since that became the default) fails here, not on the day
 * someone measures. What the figures say is the benchmarks' business (scripts/bench); here they must
 * finish, check what they check (the emulator holds what each phase should leave) and print every row.
 * The handshake bench is left out: it builds the Go providers, minutes on a fresh machine.
 */
import { expect } from 'chai';
import { delimiter, join } from 'node:path';
import { MAIN_TERRAFORM, REPO_ROOT, requireWheelTerraform, runCommand, terraformDir } from '../acceptance/terraform.js';

const MAIN = join(REPO_ROOT, 'dist', 'scripts', 'bench', 'main.js');

/** Runs `npm run bench -- <args>` as the bench script itself, with `terraform` 1.15.5 first on PATH. */
async function bench(terraform: string, args: string[]): Promise<string> {
  const run = await runCommand(process.execPath, [MAIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, PATH: `${terraformDir(terraform)}${delimiter}${process.env.PATH ?? ''}` },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.code !== 0) throw new Error(`bench ${args.join(' ')} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

describe('the benchmarks run to their tables', function () {
  this.timeout(300_000);
  let terraform: string;

  before(function () {
    terraform = requireWheelTerraform(this, MAIN_TERRAFORM);
  });

  it('sessions: each kind of process, this checkout beside itself', async () => {
    const out = await bench(terraform, ['sessions', '--count', '4', '--reps', '1', '--beside', REPO_ROOT]);
    for (const kind of ['validate', 'plan-create', 'create', 'refresh', 'delete', 'sum'])
      expect(out).to.match(new RegExp(`^  ${kind} +\\d+ ms +\\d+ ms$`, 'm'));
  });

  it('journal: the create records alone, each step beside this checkout', async () => {
    const out = await bench(terraform, ['journal', '--count', '20', '--reps', '1', '--beside', REPO_ROOT]);
    for (const step of ['apply', 'retire', 'listing', 'recovery'])
      expect(out).to.match(new RegExp(`^  ${step} +\\d+ / \\d+ µs +\\d+ / \\d+ µs`, 'm'));
  });

  it('lookalikes: a plan beside untracked look-alikes, this checkout beside itself', async () => {
    const out = await bench(terraform, ['lookalikes', '--count', '3', '--reps', '1', '--beside', REPO_ROOT]);
    // Each label is padded to the longest (the other checkout's path), so any run of spaces may follow.
    for (const kase of ['none', 'refuse', 'warn'])
      expect(out).to.match(new RegExp(`^  ${kase} +this checkout +[\\d.]+ s +\\S+ +[\\d.]+ s$`, 'm'));
  });

  it('rpc: a price per call for each row', async () => {
    const out = await bench(terraform, ['rpc', '20']);
    for (const row of [
      'sec: PlanResourceChange (create) sec_alert_channel_email',
      'vdb: ValidateResourceConfig vdb_accounts_cluster',
    ])
      expect(out).to.match(new RegExp(`${row.replace(/[()]/g, '\\$&')} +\\d+ µs \\(1 in flight`));
  });

  it('scale: real Terraform against the emulators, beside the floor', async () => {
    const out = await bench(terraform, ['scale', '--count', '4', '--provider', 'sec,vdb', '--provider-log', 'debug']);
    for (const provider of ['sec', 'vdb']) {
      const section = out.split(`scale — ${provider}, 4 resources, -parallelism=10`)[1]?.split('\n\nscale')[0] ?? '';
      for (const phase of ['apply', 'refresh', 'destroy'])
        expect(section, provider).to.match(new RegExp(`^  ${phase} +[\\d.]+ s +[\\d.]+ s`, 'm'));
    }
  });

  it('scale --against-go: ours with and without the create records, and Terraform alone', async () => {
    const out = await bench(terraform, [
      'scale',
      '--against-go',
      '--counts',
      '4',
      '--reps',
      '1',
      '--sides',
      'ours,unrecorded,alone',
    ]);
    for (const phase of ['apply', 'plan', 'destroy']) {
      expect(out).to.match(new RegExp(`ours \\(sec\\) +N=4 +${phase} +wall`));
      expect(out).to.match(new RegExp(`ours, no records N=4 +${phase} +wall`));
      expect(out).to.match(
        new RegExp(`^\\| 4 +\\| ${phase} +\\| [\\d.]+ s / [\\d.]+ s +\\| [\\d.]+ s / [\\d.]+ s`, 'm'),
      );
    }
    // Each process's CPU, both sides: Terraform starts four for an apply (schema, validate, plan and apply walks).
    const seconds = '\\d+\\.\\d\\d(?:\\.\\.\\d+\\.\\d\\d)?';
    const fourProcesses = `${seconds}(?: \\+ ${seconds}){3}`;
    expect(out).to.match(new RegExp(`^\\| 4 +\\| apply +\\| ${fourProcesses} / ${fourProcesses} +\\|$`, 'm'));
  });

  it('curve: both providers, CPU per resource and memory per phase', async () => {
    const out = await bench(terraform, ['curve', '--counts', '4', '--reps', '1']);
    for (const provider of ['sec', 'vdb'])
      for (const phase of ['apply', 'plan (refresh)', 'destroy'])
        expect(out).to.match(new RegExp(`^\\| ${provider} +\\| 4 +\\| ${phase.replace(/[()]/g, '\\$&')} +\\|`, 'm'));
  });
});
