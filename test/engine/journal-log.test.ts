/**
 * A process's log of the creates it sent (packages/framework/src/engine/journal/journal-log.ts): a request's line is on
 * the disk
 * before its `sent` resolves, the requests waiting together share a flush, and the log reads back as
 * its records not ended, each with its last answer, whatever other processes appended and however its
 * last line was cut.
 */
import { expect } from 'chai';
import { appendFileSync, fdatasyncSync, fstatSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendLine, LogReader, OwnLog } from '../../packages/framework/src/engine/journal/journal-log.js';

/** A log read once, from its start. */
const readLog = (dir: string, name: string) => new LogReader().read(dir, name);

describe('engine: the log of the creates a process sent', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('ten requests at once: each resolves after a flush that began once its line was written; they share two', async () => {
    // Each flush: the log's size when it began, after the disk took a moment.
    const flushes: number[] = [];
    const log = new OwnLog(dir, 'l~1~2~ab', async (fd) => {
      flushes.push(fstatSync(fd).size);
      await new Promise((resolve) => setTimeout(resolve, 20));
      fdatasyncSync(fd);
    });
    const written: number[] = [];
    const sent = Array.from({ length: 10 }, async (_, i) => {
      if (i >= 5) await new Promise((resolve) => setTimeout(resolve, 5));
      const pending = log.sent(`r${i}`, { sentAt: i, id: null });
      written.push(statSync(join(dir, 'l~1~2~ab')).size);
      await pending;
      return flushes.length;
    });
    const flushCounts = await Promise.all(sent);
    // The first five were written before the first flush began; the other five while it ran, so the second covers them.
    expect(flushes).to.have.length(2);
    for (const [i, size] of written.entries()) {
      const flush = flushes[flushCounts[i]! - 1]!;
      expect(flush, `request ${i}: its flush began after its line`).to.be.at.least(size);
    }
    expect([...(await readLog(dir, 'l~1~2~ab')).records.keys()]).to.have.length(10);
  });

  it('reads back its records with their last answers; one ended by any process drops; a cut last line or a stray one is not read', async () => {
    const log = new OwnLog(dir, 'l~1~2~ab', async () => undefined);
    await log.sent('a', { sentAt: 1, id: null });
    await log.sent('b', { sentAt: 2, id: null });
    await log.sent('c', { sentAt: 3, id: null });
    log.append({ rid: 'a', answer: { id: 'obj-a', answeredAt: 4, returnedAt: null } });
    appendLine(dir, 'l~1~2~ab', { rid: 'a', answer: { id: 'obj-a', answeredAt: 4, returnedAt: 5 } });
    log.append({ over: 'b' });
    appendLine(dir, 'l~1~2~ab', { over: 'c' });
    await log.sent('d', { sentAt: 6, id: null });
    appendFileSync(join(dir, 'l~1~2~ab'), 'not a line\n{"rid":"e","sent":{"sentAt"');
    const reading = await readLog(dir, 'l~1~2~ab');
    expect([...reading.records]).to.deep.equal([
      ['a', { sentAt: 1, id: 'obj-a', answeredAt: 4, returnedAt: 5 }],
      ['d', { sentAt: 6, id: null }],
    ]);
    expect(reading.unreadable).to.equal(1);
  });

  it('read again, it reads what was appended since: a record no line changed is the same object; a log made again is read from its start', async () => {
    const reader = new LogReader();
    const log = new OwnLog(dir, 'l~1~2~ab', async () => undefined);
    await log.sent('a', { sentAt: 1, id: null });
    await log.sent('b', { sentAt: 2, id: null });
    appendFileSync(join(dir, 'l~1~2~ab'), '{"rid":"c","se');
    const first = await reader.read(dir, 'l~1~2~ab');
    const a = first.records.get('a');
    expect([...first.records.keys()]).to.deep.equal(['a', 'b']);
    appendFileSync(join(dir, 'l~1~2~ab'), 'nt":{"sentAt":3,"id":null}}\n');
    appendLine(dir, 'l~1~2~ab', { rid: 'b', answer: { id: 'obj-b', answeredAt: 4, returnedAt: null } });
    appendLine(dir, 'l~1~2~ab', { over: 'a' });
    const second = await reader.read(dir, 'l~1~2~ab');
    expect([...second.records]).to.deep.equal([
      ['b', { sentAt: 2, id: 'obj-b', answeredAt: 4, returnedAt: null }],
      ['c', { sentAt: 3, id: null }],
    ]);
    expect(second.unreadable, 'the line cut at the first reading was whole at the second').to.equal(0);
    expect((await reader.read(dir, 'l~1~2~ab')).records.get('c')).to.equal(second.records.get('c'));
    expect(a).to.deep.equal({ sentAt: 1, id: null });
    rmSync(join(dir, 'l~1~2~ab'));
    appendLine(dir, 'l~1~2~ab', { over: 'b' });
    const again = new OwnLog(dir, 'l~1~2~ab', async () => undefined);
    // Longer than what was read of the first: only its first line tells it apart.
    for (const rid of ['d', 'e', 'f', 'g', 'h']) await again.sent(rid, { sentAt: 5, id: null });
    expect([...(await reader.read(dir, 'l~1~2~ab')).records.keys()]).to.deep.equal(['d', 'e', 'f', 'g', 'h']);
  });

  it('closed with every record of it ended, it goes; with one not ended, it stays for the runs that retire it', async () => {
    const done = new OwnLog(dir, 'l~1~2~ab', async () => undefined);
    await done.sent('a', { sentAt: 1, id: null });
    done.append({ over: 'a' });
    await done.close();
    expect(() => readFileSync(join(dir, 'l~1~2~ab'))).to.throw(/ENOENT/);
    const kept = new OwnLog(dir, 'l~1~3~ab', async () => undefined);
    await kept.sent('a', { sentAt: 1, id: null });
    kept.append({ rid: 'a', answer: { id: 'obj-a', answeredAt: 2, returnedAt: 3 } });
    await kept.close();
    expect([...(await readLog(dir, 'l~1~3~ab')).records.keys()]).to.deep.equal(['a']);
  });
});
