/**
 * The quick loop's scope (scripts/quick-scope.mjs): the resource types a change to one type's pieces
 * reaches, found in this repository's own modules, and none (every type) for what every type runs on.
 */
import { expect } from 'chai';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/release/paths.js';

type ReachedTypes = (
  root: string,
  changed: string[],
  changedLines?: (file: string) => number[] | undefined,
) => Set<string> | undefined;

const reachedTypes = async (): Promise<ReachedTypes> =>
  (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'quick-scope.mjs')).href)).reachedTypes;

const sorted = (types: Set<string> | undefined) => (types ? [...types].sort() : types);

describe('the quick loop: the resource types a change reaches', () => {
  it("a resource module: the types it declares and its importers'", async () => {
    const reached = await reachedTypes();
    expect(sorted(reached(REPO_ROOT, ['src/resources/sec/policy/policy.ts']))).to.deep.equal([
      'sec_policy',
      'sec_policy_compliance',
    ]);
  });

  it("an area of sec's contract: the types whose modules name its bodies", async () => {
    const reached = await reachedTypes();
    expect(sorted(reached(REPO_ROOT, ['src/wire/sec-contract/queries.ts']))).to.deep.equal(['sec_query']);
    expect(sorted(reached(REPO_ROOT, ['src/wire/sec-contract/policies.ts']))).to.include.members([
      'sec_policy',
      'sec_policy_compliance',
    ]);
  });

  it("an area of sec's contract: the types naming the bodies whose lines changed, or all of the area's", async () => {
    const reached = await reachedTypes();
    const file = 'src/wire/sec-contract/alert-channels.ts';
    const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
    const lineOf = (text: string) => lines.findIndex((line) => line.includes(text)) + 1;
    expect(sorted(reached(REPO_ROOT, [file], () => [lineOf('metricsSite:')]))).to.deep.equal([
      'sec_alert_channel_metrics',
    ]);
    expect(sorted(reached(REPO_ROOT, [file], () => [lineOf('EmailUser:'), lineOf('Pager:')]))).to.deep.equal([
      'sec_alert_channel_email',
      'sec_alert_channel_pager',
    ]);
    // A line outside every body (a helper several bodies share, such as the tracker's) reaches them all.
    const everyBody = sorted(reached(REPO_ROOT, [file], () => [lineOf('trackerUrl:')]));
    expect(everyBody).to.include.members(['sec_alert_channel_email', 'sec_alert_channel_tracker_cloud']);
    expect(everyBody).to.deep.equal(sorted(reached(REPO_ROOT, [file])));
  });

  it("a .proto file: the types naming the messages whose lines changed, or all of the file's", async () => {
    const reached = await reachedTypes();
    const file = 'proto/vdb/cloud/cluster/v1/cluster.proto';
    const oneMessage = reached(REPO_ROOT, [file], () => [112]); // inside `message Cluster`
    const wholeFile = reached(REPO_ROOT, [file]);
    expect(oneMessage).to.include('vdb_accounts_cluster');
    expect(oneMessage!.size).to.be.below(wholeFile!.size);
  });

  it("an emulator's module: the types of the area it serves, and of the emulator's modules importing it", async () => {
    const reached = await reachedTypes();
    expect(sorted(reached(REPO_ROOT, ['src/emulators/sec/report-rules.ts']))).to.deep.equal(['sec_report_rule']);
    expect(sorted(reached(REPO_ROOT, ['src/emulators/sec/policies.ts']))).to.include.members([
      'sec_policy',
      'sec_policy_compliance',
    ]);
    // A helper serving no area itself (a cron parser) reaches what its importers serve.
    const backups = sorted(reached(REPO_ROOT, ['src/emulators/vdb/backups.ts']));
    expect(backups).to.include.members(['vdb_accounts_backup_schedule', 'vdb_accounts_manual_backup']);
    expect(sorted(reached(REPO_ROOT, ['src/emulators/vdb/cron.ts']))).to.deep.equal(backups);
    expect(backups).to.not.include('vdb_accounts_cluster');
  });

  it("vdb's emulator records: the types naming the messages whose interfaces changed", async () => {
    const reached = await reachedTypes();
    const file = 'src/emulators/vdb/records.ts';
    const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
    const inside = lines.findIndex((line) => line === 'export interface BackupSchedule {') + 2;
    expect(sorted(reached(REPO_ROOT, [file], () => [inside]))).to.deep.equal([
      'vdb_accounts_backup_schedule',
      'vdb_accounts_backup_schedules',
    ]);
    expect(reached(REPO_ROOT, [file], () => [1])).to.equal(undefined);
  });

  it('a .proto file of a nested package: its messages named with the whole package', async () => {
    const reached = await reachedTypes();
    expect(sorted(reached(REPO_ROOT, ['proto/vdb/cloud/cluster/backup/v1/backup.proto']))).to.include.members([
      'vdb_accounts_backup_schedule',
      'vdb_accounts_manual_backup',
    ]);
  });

  it('what every type runs on reaches every type: none is named', async () => {
    const reached = await reachedTypes();
    for (const file of [
      'packages/framework/src/engine/plan/validate.ts',
      'src/resources/sec/rules.ts',
      'src/resources/sec/index.ts',
      'src/resources/shared/create-settings.ts',
      'src/emulators/sec/emulator.ts',
      'src/emulators/vdb/paging.ts',
    ])
      expect(reached(REPO_ROOT, [file]), file).to.equal(undefined);
    // One such file among the changes widens all of them.
    expect(reached(REPO_ROOT, ['src/resources/sec/policy/policy.ts', 'src/resources/sec/index.ts'])).to.equal(
      undefined,
    );
  });
});
