// API modules load on their first call (src/clients/load-on-first-call.ts): the mechanism itself, and,
// in a fresh Node process that records every module it loads, that configuring the sec provider's
// client loads neither zod nor an API module, and that a call loads its own API's module alone.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { loadOnFirstCall } from '../../src/clients/load-on-first-call.js';

interface Api {
  get(id: string): Promise<string>;
  fail(): Promise<never>;
}

function countedApi(): { loads: () => number; api: Api; failNextLoad: () => void } {
  let loads = 0;
  let failNext = false;
  const api = loadOnFirstCall<Api>(async () => {
    loads += 1;
    if (failNext) {
      failNext = false;
      throw new Error('module failed to load');
    }
    return {
      get: async (id) => `got ${id}`,
      fail: async () => {
        throw new RangeError('refused');
      },
    };
  });
  return {
    loads: () => loads,
    api,
    failNextLoad: () => {
      failNext = true;
    },
  };
}

describe('API modules loaded on their first call', () => {
  it('loads nothing until a method is called, then once for every call, concurrent ones included', async () => {
    const { api, loads } = countedApi();
    const get = api.get;
    expect(loads()).to.equal(0);
    expect(await Promise.all([get('a'), api.get('b'), api.get('c')])).to.deep.equal(['got a', 'got b', 'got c']);
    expect(await api.get('d')).to.equal('got d');
    expect(loads()).to.equal(1);
  });

  it("passes the API's rejections through as they are", async () => {
    const { api } = countedApi();
    const error = await api.fail().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(RangeError).with.property('message', 'refused');
  });

  it('rejects the calls of a failed load, and loads again on the next call', async () => {
    const { api, loads, failNextLoad } = countedApi();
    failNextLoad();
    const failed = await api.get('a').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).to.be.instanceOf(Error).with.property('message', 'module failed to load');
    expect(await api.get('b')).to.equal('got b');
    expect(loads()).to.equal(2);
  });

  it('is no thenable (awaiting it gives it back) and rejects a method the API lacks', async () => {
    const { api } = countedApi();
    expect(await Promise.resolve(api)).to.equal(api);
    const missing = (api as unknown as { nothing(): Promise<unknown> }).nothing();
    const error = await missing.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(TypeError).with.property('message', 'the API has no method nothing');
  });

  it('the sec client loads zod and an API module at that API’s first call, and no other API’s', function () {
    this.timeout(30_000);
    const client = new URL('../../src/clients/sec/client.js', import.meta.url).href;
    const settings = new URL('../../src/resources/sec/provider-config.js', import.meta.url).href;
    // Every module URL the process loads reaches the main thread through the loader hook's port.
    const hook = [
      'let port;',
      'export function initialize(data) { port = data.port; }',
      'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }',
    ].join('\n');
    const script = `
      import { register } from 'node:module';
      import { MessageChannel } from 'node:worker_threads';
      import { createServer } from 'node:http';
      import { setImmediate as turn } from 'node:timers/promises';
      const { port1, port2 } = new MessageChannel();
      const loaded = [];
      port1.on('message', (url) => loaded.push(url));
      port1.unref();
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}), { data: { port: port2 }, transferList: [port2] });
      const seen = async () => { await turn(); await turn(); return loaded.map((u) => u.replace(/^.*\\/(node_modules\\/[^/]+|src\\/)/, '$1')); };
      const { resolveSecSettings } = await import(${JSON.stringify(settings)});
      const { createSecClient } = await import(${JSON.stringify(client)});
      const server = createServer((request, response) => {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"message":"no such channel"}');
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const env = { SEC_ACCOUNT: 'acme', SEC_API_TOKEN: 'tok', SEC_API_URL: 'http://127.0.0.1:' + server.address().port };
      const resolved = await resolveSecSettings({}, env, { warning() {} });
      const client = createSecClient({ ...resolved, userAgent: 'test' });
      const configured = await seen();
      const answer = await client.alertChannels.get('CHANNEL_1').then(() => 'answered', (e) => e.code);
      const called = await seen();
      await client.close();
      server.close();
      // The loader hooks' thread keeps the process alive.
      process.stdout.write(JSON.stringify({ configured, called, answer }), () => process.exit(0));
    `;
    const run = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 25_000,
    });
    expect(run.status, run.stderr).to.equal(0);
    const { configured, called, answer } = JSON.parse(run.stdout) as Record<string, string[]> & { answer: string };
    expect(answer).to.equal('not_found');
    const zod = (urls: string[]) => urls.filter((u) => u.startsWith('node_modules/zod'));
    const apiModules = (urls: string[]) =>
      urls.filter((u) => /^src\/clients\/sec\/(alert-channels|cloud-accounts|policies|team-members)\.js$/.test(u));
    expect(configured, 'modules loaded to configure').to.include('src/clients/sec/client.js');
    expect(zod(configured), 'zod loaded to configure').to.deep.equal([]);
    expect(apiModules(configured)).to.deep.equal([]);
    expect(configured, 'the profile reader, with credentials set').to.not.include('src/resources/sec/profile-file.js');
    expect(zod(called), 'zod, at the first call').to.not.deep.equal([]);
    expect(apiModules(called)).to.deep.equal(['src/clients/sec/alert-channels.js']);
  });
});
