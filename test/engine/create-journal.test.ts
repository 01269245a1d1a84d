/**
 * The create journal's files (packages/framework/src/engine/journal/create-journal.ts): several processes writing at
 * once lose
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
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { backendOf, CreateJournal, digest, journalPlace } from '../../packages/framework/src/engine/journal/index.js';
import {
  EXPIRY_MS,
  recordId,
  recordName,
  writeAtomically,
} from '../../packages/framework/src/engine/journal/journal-files.js';
import { recordsIn } from '../support/create-records.js';

const run = promisify(execFile);
const JOURNAL_MODULE = pathToFileURL(resolve('dist/packages/framework/src/engine/journal/index.js')).href;

const entry = (n: number) => ({ type: 'fake_thing', key: digest(`key ${n}`), settings: digest(`settings ${n}`) });

function journalIn(dir: string, now?: () => number): CreateJournal {
  const journal = new CreateJournal('fake', journalPlace({ namespace: 'acme', name: 'fake' }, {}, dir), now);
  journal.useApi('https://fake.example');
  return journal;
}

/** The one API directory under the working directory `dir`. */
const apiDir = (dir: string) =>
  join(journalPlace({ namespace: 'acme', name: 'fake' }, {}, dir).root, digest('https://fake.example'));

/** The files of the one API directory under the working directory `dir`. */
const files = (dir: string) => readdirSync(apiDir(dir));

describe('engine: the create journal on disk', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives in TF_DATA_DIR (default .terraform) of the working directory, per state: its workspace and its backend', () => {
    const local = (cwd: string, workspace?: string) => backendOf(join(cwd, '.terraform'), cwd, workspace).state;
    expect(journalPlace({ namespace: 'keel', name: 'sec' }, {}, '/w').root).to.equal(
      `/w/.terraform/keel-creates/sec/default~${local('/w')}`,
    );
    expect(journalPlace({ namespace: 'keel', name: 'sec' }, { TF_DATA_DIR: 'data' }, '/w').root).to.equal(
      `/w/data/keel-creates/sec/default~${local('/w')}`,
    );
    expect(journalPlace({ namespace: 'keel', name: 'sec' }, { TF_DATA_DIR: '/abs' }, '/w').root).to.equal(
      `/abs/keel-creates/sec/default~${local('/w')}`,
    );
    const prod = journalPlace({ namespace: 'keel', name: 'vdb' }, { TF_WORKSPACE: 'prod' }, '/w');
    expect(prod).to.deep.include({
      root: `/w/.terraform/keel-creates/vdb/prod~${local('/w', 'prod')}`,
      workspace: 'prod',
    });
    expect(prod.state).to.deep.equal({
      workspace: 'prod',
      backend: backendOf('/w/.terraform', '/w').backend,
      state: local('/w', 'prod'),
      where: 'the local backend at /w/terraform.tfstate.d/prod/terraform.tfstate',
    });
    // Named by the provider's address: another provider's records are its own namespace's.
    expect(journalPlace({ namespace: 'acme', name: 'kv' }, {}, '/w').root).to.equal(
      `/w/.terraform/acme-creates/kv/default~${local('/w')}`,
    );
    mkdirSync(join(dir, '.terraform'));
    writeFileSync(join(dir, '.terraform', 'environment'), 'staging');
    expect(journalPlace({ namespace: 'keel', name: 'sec' }, {}, dir).workspace).to.equal('staging');
    expect(journalPlace({ namespace: 'keel', name: 'sec' }, { TF_WORKSPACE: '../x' }, '/w').root).to.match(
      /keel-creates\/sec\/___x-[0-9a-f]{8}~[0-9a-f]{12}$/,
    );
  });

  it('a state is its backend as `terraform init` recorded it: the key or address names it, credentials do not, two local state files are two states', () => {
    const backend = (config: Record<string, unknown>, type = 'http', cwd = dir) => {
      writeFileSync(
        join(dir, '.terraform', 'terraform.tfstate'),
        JSON.stringify({ version: 3, backend: { type, config, hash: 1 } }),
      );
      return backendOf(join(dir, '.terraform'), cwd);
    };
    mkdirSync(join(dir, '.terraform'));
    const prod = backend({ address: 'https://ci.example/state/prod', username: 'u', password: 'p1' });
    const preview = backend({ address: 'https://ci.example/state/preview', username: 'u', password: 'p1' });
    expect(prod.backend, 'another key, another state').to.not.equal(preview.backend);
    expect(
      backend({ address: 'https://ci.example/state/prod', username: 'u2', password: 'rotated', retry_max: 9 }).backend,
      'the same state whatever its credentials and retries',
    ).to.equal(prod.backend);
    expect(prod.where).to.equal('the http backend at https://ci.example/state/prod');
    expect(
      backend({ address: 'https://user:secret@ci.example/state/prod?token=t' }).where,
      'no credential in what a message says',
    ).to.equal('the http backend at https://ci.example/state/prod');
    expect(backend({ bucket: 'b', key: 'env/prod.tfstate', access_key: 'AK' }, 's3').where).to.equal(
      'the s3 backend at s3://b/env/prod.tfstate',
    );
    expect(backend({ bucket: 'b', key: 'a' }, 's3').backend).to.not.equal(
      backend({ bucket: 'b', key: 'b' }, 's3').backend,
    );
    // Local state files relative to two working directories are two states; one absolute path is one.
    expect(backend({}, 'local', '/one').state).to.not.equal(backend({}, 'local', '/two').state);
    expect(backend({ path: '/shared/s.tfstate' }, 'local', '/one').state).to.equal(
      backend({ path: '/shared/s.tfstate' }, 'local', '/two').state,
    );
  });

  it('four processes writing at once: every record is there, whole, answered as its writer said', async () => {
    const script = `
      const { CreateJournal, journalPlace, digest } = await import(${JSON.stringify(JOURNAL_MODULE)});
      const journal = new CreateJournal('fake', journalPlace({ namespace: 'acme', name: 'fake' }, {}, process.argv[1]));
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
    // In their writers' logs, one log each: no file per record.
    expect(new Set(all.map((r) => r.log)).size).to.equal(4);
    expect(all.every((r) => r.log !== undefined)).to.equal(true);
    expect(files(dir).filter((n) => n.startsWith('r~'))).to.deep.equal([]);
    const contents = all.map((r) => r.content as { id: string | null; census: string[]; returnedAt: number | null });
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
    const root = join(journalPlace({ namespace: 'acme', name: 'fake' }, {}, dir).root, digest('https://fake.example'));
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
    expect(problem).to.match(
      /could not record a create before sending it in .*\.terraform.* \(ENOTDIR: not a directory, /,
    );
    expect(await journal.openRecords(entry(1))).to.deep.equal([]);
  });

  it('records expire after EXPIRY_MS; leftover temporary files after an hour', async () => {
    const journal = journalIn(dir);
    await journal.finish(await journal.sent(entry(1), []), 'kept');
    const root = join(journalPlace({ namespace: 'acme', name: 'fake' }, {}, dir).root, digest('https://fake.example'));
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

  it('an orderly shutdown ends the records of what its run handed over, noting them held; a record still waiting keeps its log until a run shows its object', async () => {
    const apply = journalIn(dir);
    const returned = await apply.sent(entry(1), []);
    await apply.answered(returned, 'obj-1', false);
    await apply.finish(returned, 'returned');
    // Answered, but its result never reached the client (the call was cancelled): kept for the next run.
    const kept = await apply.sent(entry(3), []);
    await apply.answered(kept, 'obj-3', false);
    await apply.finish(kept, 'kept');
    await apply.finish(await apply.sent(entry(2), []), 'dropped');
    await apply.ended();
    const [log] = files(dir).filter((n) => n.startsWith('l~'));
    expect(log, 'its kept record waits').to.be.a('string');
    expect(recordsIn(apiDir(dir)).map((r) => r.name)).to.deep.equal([kept!.name]);
    expect(readFileSync(join(apiDir(dir), 'owned'), 'utf8'), 'what it handed over is the state’s').to.match(
      new RegExp(`^s \\{"workspace":"default",.*\\}\nh fake_thing ${digest('obj-1')}\n$`),
    );

    const plan = journalIn(dir);
    plan.seen('fake_thing', 'obj-3', 'tracked');
    await plan.flush();
    expect(readFileSync(join(apiDir(dir), log!), 'utf8')).to.include(
      `{"over":"${kept!.name.split('~')[5]!.replace('.json', '')}"}`,
    );
    expect(recordsIn(apiDir(dir))).to.deep.equal([]);
    await plan.ended();

    const next = journalIn(dir);
    expect(await next.openRecords(entry(3))).to.deep.equal([]);
    await next.flush();
    expect(
      files(dir).filter((n) => n.startsWith('l~')),
      'every record ended, and its process',
    ).to.deep.equal([]);
  });

  it('a killed run’s request, taken over and found to have made nothing, ends in that run’s log', async () => {
    const killed = journalIn(dir);
    await killed.finish(await killed.sent(entry(2), []), 'kept');
    const [log] = files(dir).filter((n) => n.startsWith('l~'));
    const next = journalIn(dir);
    const [record] = await next.openRecords(entry(2));
    expect(record!.log).to.equal(log);
    await next.finish(next.resume(record!), 'dropped');
    expect(await journalIn(dir).openRecords(entry(2))).to.deep.equal([]);
    expect(
      files(dir).filter((n) => n.startsWith('l~')),
      'its process never ended: no line is its last',
    ).to.deep.equal([log]);
  });

  it('a record is lines of its process’s log: its request, its answer, its return; no file is made', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), ['census-1']);
    expect(recordsIn(apiDir(dir)).map((r) => [r.name, r.log])).to.deep.equal([[handle!.name, handle!.log]]);
    await journal.answered(handle, 'obj-1');
    expect(handle!.name).to.include(`~${digest('obj-1')}~`);
    await journal.finish(handle, 'returned');
    await journal.flush();
    expect(files(dir).filter((n) => n.startsWith('r~') || n.endsWith('.tmp'))).to.deep.equal([]);
    const [onDisk] = recordsIn(apiDir(dir));
    expect(onDisk).to.include({ name: handle!.name, log: handle!.log });
    expect(onDisk!.text.split('\n').map((line) => Object.keys(JSON.parse(line))[1])).to.deep.equal([
      'sent',
      'answer',
      'answer',
    ]);
    const [record] = await journalIn(dir).openRecords(entry(1));
    expect(record).to.include({ id: 'obj-1', name: handle!.name, log: handle!.log });
    expect(record!.returnedAt).to.be.a('number');
    expect(record!.census).to.deep.equal(['census-1']);
  });

  it('a request recorded in a file of its own (as before the logs) is read, answered in place and counted once', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), ['census-1']);
    await journal.finish(handle, 'kept');
    const [waiting] = recordsIn(apiDir(dir));
    writeFileSync(join(apiDir(dir), handle!.name), `${JSON.stringify(waiting!.content)}\n`);
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

  it('a record file caught half rewritten is read again, not set aside', async () => {
    // A record in a file of its own, as earlier releases wrote them.
    const sentAt = Date.now();
    const content = {
      version: 1,
      provider: 'fake',
      workspace: 'default',
      api: 'https://fake.example',
      ...entry(1),
      census: [],
      process: 'p~1~1~00',
      sentAt,
      id: 'obj-1',
      answeredAt: sentAt,
      returnedAt: null,
    };
    await writeAtomically(apiDir(dir), recordName(entry(1), digest('obj-1'), recordId(sentAt)), content);
    const [name] = files(dir).filter((n) => n.startsWith('r~'));
    const path = join(apiDir(dir), name!);
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
});
