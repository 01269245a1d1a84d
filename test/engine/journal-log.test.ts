/**
 * A process's log of the requests it sent (src/engine/journal-log.ts): a request's line is on the disk
 * before its `sent` resolves, the requests waiting together share a flush, and the log reads back as
 * the requests still out, whatever other processes appended and however its last line was cut.
 */
import { expect } from 'chai';
import { appendFileSync, fdatasyncSync, fstatSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendOver, OwnLog, readLog } from '../../src/engine/journal-log.js';

describe('engine: the log of the requests a process sent', () => {
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
    expect([...(await readLog(dir, 'l~1~2~ab')).waiting.keys()]).to.have.length(10);
  });

  it('reads back what waits: lines taken out by any process drop; a cut last line or a stray one is not read', async () => {
    const log = new OwnLog(dir, 'l~1~2~ab', async () => undefined);
    await log.sent('a', { sentAt: 1, id: null });
    await log.sent('b', { sentAt: 2, id: null });
    log.over('a');
    appendOver(dir, 'l~1~2~ab', 'b');
    await log.sent('c', { sentAt: 3, id: null });
    appendFileSync(join(dir, 'l~1~2~ab'), 'not a line\n{"rid":"d","sent":{"sentAt"');
    const reading = await readLog(dir, 'l~1~2~ab');
    expect([...reading.waiting]).to.deep.equal([['c', { sentAt: 3, id: null }]]);
    expect(reading.unreadable).to.equal(1);
  });

  it('closed with nothing waiting, it goes; with a request out, it stays for the next run', async () => {
    const done = new OwnLog(dir, 'l~1~2~ab', async () => undefined);
    await done.sent('a', { sentAt: 1, id: null });
    done.over('a');
    await done.close();
    expect(() => readFileSync(join(dir, 'l~1~2~ab'))).to.throw(/ENOENT/);
    const kept = new OwnLog(dir, 'l~1~3~ab', async () => undefined);
    await kept.sent('a', { sentAt: 1, id: null });
    await kept.close();
    expect([...(await readLog(dir, 'l~1~3~ab')).waiting.keys()]).to.deep.equal(['a']);
    // Another process took its request out while it ran: nothing of it waits, and it goes.
    const taken = new OwnLog(dir, 'l~1~4~ab', async () => undefined);
    await taken.sent('a', { sentAt: 1, id: null });
    appendOver(dir, 'l~1~4~ab', 'a');
    await taken.close();
    expect(() => readFileSync(join(dir, 'l~1~4~ab'))).to.throw(/ENOENT/);
  });
});
