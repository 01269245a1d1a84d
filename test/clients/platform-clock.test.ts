/**
 * The platform's clock, as both clients read it from their answers' `date` (wire/platform-clock.ts):
 * the window of a killed create request is measured on it (docs/decisions.md, "Whose object is it").
 * Each emulator dates its answers by its own clock, as the platforms (and the proxies in front of
 * them) do, so an emulator whose clock runs ahead of the runner's shows that offset to the client.
 */
import { expect } from 'chai';
import { createSecClient } from '../../src/clients/sec/index.js';
import { createVdbClient } from '../../src/clients/vdb/index.js';
import { startSecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { notePlatformDate, platformOffsetMs } from '../../packages/framework/src/wire/platform-clock.js';

const AHEAD_MS = 120_000;

describe('the platform’s clock, from its answers’ `date`', () => {
  // The runner's clock again for the tests after these.
  afterEach(() => notePlatformDate(new Date().toUTCString()));

  it('sec: an emulator two minutes ahead shows two minutes ahead', async () => {
    const emulator = await startSecEmulator();
    try {
      emulator.clock.advance(AHEAD_MS);
      const api = createSecClient({
        baseUrl: emulator.url,
        account: emulator.account,
        apiKey: emulator.apiKey,
        apiSecret: emulator.apiSecret,
        userAgent: 'test',
      });
      notePlatformDate(new Date().toUTCString());
      await api.alertChannels.list();
      expect(platformOffsetMs()).to.be.within(AHEAD_MS - 2_000, AHEAD_MS + 2_000);
    } finally {
      await emulator.close();
    }
  });

  it('vdb: an emulator two minutes ahead shows two minutes ahead', async () => {
    const emulator = await startVdbEmulator({ provisioningMs: 0 });
    const vdb = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'test' });
    try {
      emulator.clock.advance(AHEAD_MS);
      notePlatformDate(new Date().toUTCString());
      await vdb.clusters.list({ accountId: emulator.accountId });
      expect(platformOffsetMs()).to.be.within(AHEAD_MS - 2_000, AHEAD_MS + 2_000);
    } finally {
      vdb.close();
      await emulator.close();
    }
  });
});
