/**
 * The create journal's files (src/engine/create-journal.ts): several processes writing at once lose
 * no record and tear none; a file that cannot be read, a directory that cannot be written and old
 * records cost the protection, with one warning that says so, never the run; records expire.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CreateJournal, EXPIRY_MS, digest, journalPlace } from '../../src/engine/create-journal.js';
import { recordsIn } from '../support/create-records.js';

const run = promisify(execFile);
const JOURNAL_MODULE = pathToFileURL(resolve('dist/src/engine/create-journal.js')).href;

const entry = (n: number) => ({ type: 'fake_thing', key: digest(`key ${n}`), settings: digest(`settings ${n}`) });

function journalIn(dir: string, now?: () => number): CreateJournal {
  const journal = new CreateJournal('fake', journalPlace('fake', {}, dir), now);
  journal.useApi('https://fake.example');
  return journal;
}

/** The one API directory under the working directory `dir`. */
const apiDir = (dir: string) => join(journalPlace('fake', {}, dir).root, digest('https://fake.example'));

/** The files of the one API directory under the working directory `dir`. */
const files = (dir: string) => readdirSync(apiDir(dir));

describe('engine: the create journal on disk', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives in TF_DATA_DIR (default .terraform) of the working directory, per workspace', () => {
    expect(journalPlace('sec', {}, '/w').root).to.equal('/w/.terraform/keel-creates/sec/default');
    expect(journalPlace('sec', { TF_DATA_DIR: 'data' }, '/w').root).to.equal('/w/data/keel-creates/sec/default');
    expect(journalPlace('sec', { TF_DATA_DIR: '/abs' }, '/w').root).to.equal('/abs/keel-creates/sec/default');
    expect(journalPlace('vdb', { TF_WORKSPACE: 'prod' }, '/w')).to.deep.equal({
      root: '/w/.terraform/keel-creates/vdb/prod',
      workspace: 'prod',
    });
    mkdirSync(join(dir, '.terraform'));
    writeFileSync(join(dir, '.terraform', 'environment'), 'staging');
    expect(journalPlace('sec', {}, dir).workspace).to.equal('staging');
    expect(journalPlace('sec', { TF_WORKSPACE: '../x' }, '/w').root).to.match(/keel-creates\/sec\/___x-[0-9a-f]{8}$/);
  });

  it('four processes writing at once: every record is there, whole, answered as its writer said', async () => {
    const script = `
      const { CreateJournal, journalPlace, digest } = await import(${JSON.stringify(JOURNAL_MODULE)});
      const journal = new CreateJournal('fake', journalPlace('fake', {}, process.argv[1]));
      journal.useApi('https://fake.example');
      const writer = process.argv[2];
      await Promise.all(Array.from({ length: 50 }, async (_, i) => {
        const entry = { type: 'fake_thing', key: digest('key ' + i), settings: digest('s') };
        const handle = await journal.sent(entry, ['census-' + writer]);
        // Half written at once, half with their return; a quarter never answered, their outcome unknown.
        if (i % 4 === 3) return journal.finish(handle, 'kept');
        await journal.answered(handle, writer + '-' + i, i % 2 === 0);
        await journal.finish(handle, 'returned');
      }));
      await journal.flush();
      if (journal.takeProblem()) throw new Error(journal.takeProblem());
    `;
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((w) => run(process.execPath, ['--input-type=module', '-e', script, dir, w])),
    );
    const all = recordsIn(apiDir(dir));
    expect(all).to.have.length(200);
    expect(files(dir).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    // The unanswered wait in their writers' logs, one log each; the answered have a file each.
    const waiting = all.filter((r) => r.log !== undefined);
    expect(waiting).to.have.length(4 * 12);
    expect(new Set(waiting.map((r) => r.log)).size).to.equal(4);
    expect(files(dir).filter((n) => n.startsWith('r~'))).to.have.length(4 * 38);
    const contents = all.map((r) => (r.log ? JSON.parse(r.text).sent : JSON.parse(r.text)));
    const answered = contents.filter((c) => c.id !== null).map((c) => c.id as string);
    expect(answered).to.have.length(4 * 38);
    for (const c of contents) {
      expect(c.census).to.have.length(1);
      if (c.id === null) {
        expect(c.returnedAt).to.equal(null);
        continue;
      }
      expect(c.returnedAt).to.be.a('number');
      expect(c.census[0]).to.equal(`census-${c.id.split('-')[0]}`);
    }
  });

  it('an unreadable record is set aside with one warning naming what protection is missing; the rest are read', async () => {
    const journal = journalIn(dir);
    const good = await journal.sent(entry(1), []);
    await journal.finish(good, 'kept');
    const root = join(journalPlace('fake', {}, dir).root, digest('https://fake.example'));
    const torn = good!.name.replace(/~[0-9a-z]+-[0-9a-z]+\.json$/, `~${Date.now().toString(36)}-torn.json`);
    writeFileSync(join(root, torn), '{"version":1,"type":"fake_th');
    const next = journalIn(dir);
    const open = await next.openRecords(entry(1));
    expect(open).to.have.length(1);
    expect(open[0]!.name).to.equal(good!.name);
    await next.flush();
    expect(files(dir)).to.include(`unreadable~${torn}`);
    const problem = next.takeProblem();
    expect(problem).to.include(`read the record ${torn}`);
    expect(problem).to.include('a run killed outright');
    expect(next.takeProblem(), 'said once').to.equal(undefined);
  });

  it('a directory it cannot write: the create goes on without a record, with the warning', async () => {
    // A file where the data directory should be: no user, root included, can make a folder in it.
    writeFileSync(join(dir, '.terraform'), 'not a directory');
    const journal = journalIn(dir);
    expect(await journal.sent(entry(1), [])).to.equal(null);
    const problem = journal.takeProblem();
    expect(problem).to.match(/could not record a create before sending it in .*\.terraform.* \(ENOTDIR/);
    expect(await journal.openRecords(entry(1))).to.deep.equal([]);
  });

  it('records expire after EXPIRY_MS; leftover temporary files after an hour', async () => {
    const journal = journalIn(dir);
    await journal.finish(await journal.sent(entry(1), []), 'kept');
    const root = join(journalPlace('fake', {}, dir).root, digest('https://fake.example'));
    writeFileSync(join(root, 'r~fake_thing~x.json.abcd.tmp'), '{');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(join(root, 'r~fake_thing~x.json.abcd.tmp'), old, old);
    expect(await journalIn(dir).openRecords(entry(1))).to.have.length(1);
    const later = journalIn(dir, () => Date.now() + EXPIRY_MS + 60_000);
    expect(await later.openRecords(entry(1))).to.deep.equal([]);
    await later.flush();
    expect(files(dir).filter((n) => /^[rl]~/.test(n) || n.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('a line of a log that is no record: one warning naming the log; its other records are read', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), []);
    await journal.finish(handle, 'kept');
    appendFileSync(join(apiDir(dir), handle!.log!), '{"rid":"x","sent":{"version":1,"type"\n');
    await journal.finish(await journal.sent(entry(2), []), 'kept');
    const next = journalIn(dir);
    expect((await next.openRecords(entry(1))).map((r) => r.name)).to.deep.equal([handle!.name]);
    expect(await next.openRecords(entry(2))).to.have.length(1);
    expect(next.takeProblem()).to.include(`read every line of the log ${handle!.log}`);
  });

  it('a log leaves with its process when nothing waits in it; else once a later run took out what waited', async () => {
    const done = journalIn(dir);
    const answered = await done.sent(entry(1), []);
    await done.answered(answered, 'obj-1', false);
    await done.finish(answered, 'returned');
    await done.ended();
    expect(files(dir).filter((n) => n.startsWith('l~'))).to.deep.equal([]);

    const killed = journalIn(dir);
    await killed.finish(await killed.sent(entry(2), []), 'kept');
    await killed.ended();
    const [log] = files(dir).filter((n) => n.startsWith('l~'));
    expect(log, 'kept: its request is still out').to.be.a('string');
    const next = journalIn(dir);
    const [record] = await next.openRecords(entry(2));
    expect(record!.log).to.equal(log);
    await next.finish(next.resume(record!), 'dropped');
    expect(readFileSync(join(apiDir(dir), log!), 'utf8')).to.include(
      `{"over":"${record!.name.split('~')[5]!.replace('.json', '')}"}`,
    );
    const third = journalIn(dir);
    expect(await third.openRecords(entry(2))).to.deep.equal([]);
    await third.flush();
    expect(
      files(dir).filter((n) => n.startsWith('l~')),
      'nothing waits, and its process ended',
    ).to.deep.equal([]);
  });

  it('a request waits in its process’s log; its answer makes its one file, which its return rewrites in place', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), ['census-1']);
    expect(
      files(dir).filter((n) => n.startsWith('r~')),
      'no file per request',
    ).to.deep.equal([]);
    expect(recordsIn(apiDir(dir)).map((r) => [r.name, r.log])).to.deep.equal([[handle!.name, handle!.log]]);
    await journal.answered(handle, 'obj-1');
    expect(handle!.name).to.include(`~${digest('obj-1')}~`);
    expect(handle!.log).to.equal(undefined);
    const inode = statSync(join(apiDir(dir), handle!.name)).ino;
    await journal.finish(handle, 'returned');
    await journal.flush();
    expect(statSync(join(apiDir(dir), handle!.name)).ino, 'the same file, rewritten').to.equal(inode);
    expect(recordsIn(apiDir(dir)).map((r) => [r.name, r.log])).to.deep.equal([[handle!.name, undefined]]);
    expect(files(dir).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    const [record] = await journalIn(dir).openRecords(entry(1));
    expect(record).to.include({ id: 'obj-1', name: handle!.name });
    expect(record!.returnedAt).to.be.a('number');
    expect(record!.census).to.deep.equal(['census-1']);
  });

  it('a request recorded in a file of its own (as before the logs) is read, answered in place and counted once', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), ['census-1']);
    await journal.finish(handle, 'kept');
    const [waiting] = recordsIn(apiDir(dir));
    writeFileSync(join(apiDir(dir), handle!.name), `${JSON.stringify(JSON.parse(waiting!.text).sent)}\n`);
    rmSync(join(apiDir(dir), handle!.log!));
    const next = journalIn(dir);
    const [record] = await next.openRecords(entry(1));
    expect(record).to.include({ name: handle!.name, id: null });
    expect(record!.log).to.equal(undefined);
    const resumed = next.resume(record!);
    await next.answered(resumed, 'obj-1');
    await next.flush();
    expect(files(dir).filter((n) => n.startsWith('r~'))).to.deep.equal([resumed.name]);
    expect((await journalIn(dir).openRecords(entry(1))).map((r) => r.id)).to.deep.equal(['obj-1']);
  });

  it('a record caught half rewritten is read again, not set aside', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), []);
    await journal.answered(handle, 'obj-1');
    const path = join(journalPlace('fake', {}, dir).root, digest('https://fake.example'), handle!.name);
    const whole = readFileSync(path, 'utf8');
    // What a reader sees while the writer is at it: the start of the new contents, then the rest.
    writeFileSync(path, whole.slice(0, 40));
    setTimeout(() => writeFileSync(path, whole), 10);
    const reader = journalIn(dir);
    const open = await reader.openRecords(entry(1));
    await reader.flush();
    expect(open.map((r) => r.id)).to.deep.equal(['obj-1']);
    expect(files(dir).filter((n) => n.startsWith('unreadable~'))).to.deep.equal([]);
    expect(reader.takeProblem()).to.equal(undefined);
  });

  it('a record answered whose log lost the word of it (the machine went down) counts once, as answered', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), []);
    const log = join(apiDir(dir), handle!.log!);
    const before = readFileSync(log);
    await journal.answered(handle, 'obj-1');
    writeFileSync(log, before);
    expect(recordsIn(apiDir(dir)), 'on disk, both').to.have.length(2);
    const open = await journalIn(dir).openRecords(entry(1));
    expect(open.map((r) => r.id)).to.deep.equal(['obj-1']);
  });
});
