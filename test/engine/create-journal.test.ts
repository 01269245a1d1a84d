/**
 * The create journal's files (src/engine/create-journal.ts): several processes writing at once lose
 * no record and tear none; a file that cannot be read, a directory that cannot be written and old
 * records cost the protection, with one warning that says so, never the run; records expire.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import {
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

const run = promisify(execFile);
const JOURNAL_MODULE = pathToFileURL(resolve('dist/src/engine/create-journal.js')).href;

const entry = (n: number) => ({ type: 'fake_thing', key: digest(`key ${n}`), settings: digest(`settings ${n}`) });

function journalIn(dir: string, now?: () => number): CreateJournal {
  const journal = new CreateJournal('fake', journalPlace('fake', {}, dir), now);
  journal.useApi('https://fake.example');
  return journal;
}

/** The files of the one API directory under the working directory `dir`. */
function files(dir: string): string[] {
  const root = journalPlace('fake', {}, dir).root;
  return readdirSync(join(root, digest('https://fake.example')));
}

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
    const names = files(dir).filter((n) => n.startsWith('r~'));
    expect(names).to.have.length(200);
    expect(files(dir).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    const root = join(journalPlace('fake', {}, dir).root, digest('https://fake.example'));
    const contents = names.map((n) => JSON.parse(readFileSync(join(root, n), 'utf8')));
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
    expect(files(dir).filter((n) => n.startsWith('r~') || n.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('answering and returning a create rewrite its one file in place: no file made or removed', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), ['census-1']);
    const root = join(journalPlace('fake', {}, dir).root, digest('https://fake.example'));
    const inode = statSync(join(root, handle!.name)).ino;
    const before = files(dir).length;
    await journal.answered(handle, 'obj-1');
    await journal.finish(handle, 'returned');
    await journal.flush();
    expect(handle!.name).to.include(`~${digest('obj-1')}~`);
    expect(statSync(join(root, handle!.name)).ino, 'the same file, renamed').to.equal(inode);
    expect(files(dir).length).to.equal(before);
    expect(files(dir).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    const [record] = await journalIn(dir).openRecords(entry(1));
    expect(record).to.include({ id: 'obj-1', name: handle!.name });
    expect(record!.returnedAt).to.be.a('number');
    expect(record!.census).to.deep.equal(['census-1']);
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

  it('a record answered twice over a crash (both names left) counts once, as answered', async () => {
    const journal = journalIn(dir);
    const handle = await journal.sent(entry(1), []);
    const sentName = handle!.name;
    const content = readFileSync(
      join(join(journalPlace('fake', {}, dir).root, digest('https://fake.example')), sentName),
    );
    await journal.answered(handle, 'obj-1');
    const root = join(journalPlace('fake', {}, dir).root, digest('https://fake.example'));
    writeFileSync(join(root, sentName), content);
    const open = await journalIn(dir).openRecords(entry(1));
    expect(open.map((r) => r.id)).to.deep.equal(['obj-1']);
  });
});
