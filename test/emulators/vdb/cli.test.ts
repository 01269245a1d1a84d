/** The vdb emulator as a program (src/emulators/main.js vdb): what it prints, the port it takes, how it stops. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createVdbClient } from '../../../src/clients/vdb/index.js';
import { startVdbEmulator } from '../../../src/emulators/vdb/index.js';

describe('vdb emulator CLI', () => {
  const main = fileURLToPath(new URL('../../../src/emulators/main.js', import.meta.url));

  it('prints exactly one JSON line with url, api_key and account_id, serves the API, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [main, 'vdb', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const first = await lines.next();
      const ready = JSON.parse(first.value as string);
      expect(ready).to.have.keys('url', 'api_key', 'account_id');
      expect(ready.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ready.account_id).to.match(/^[0-9a-f-]{36}$/);

      const vdb = createVdbClient({ apiUrl: ready.url, apiKey: ready.api_key, userAgent: 'test' });
      try {
        const regions = await vdb.platform.listCloudProviderRegions({
          accountId: ready.account_id,
          cloudProviderId: 'azure',
        });
        expect(regions).to.have.length(4);
      } finally {
        vdb.close();
      }

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).to.equal(0);
      const rest = await lines.next();
      expect(rest.done, 'nothing else on stdout').to.equal(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('honours --port', async () => {
    const probe = await startVdbEmulator();
    const port = probe.port;
    await probe.close();
    const child = spawn(process.execPath, [main, 'vdb', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
      expect(JSON.parse(first.value as string).url).to.equal(`http://127.0.0.1:${port}`);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});
