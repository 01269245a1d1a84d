// API modules load on their first call (src/clients/load-on-first-call.ts): the mechanism itself, and,
// in a fresh Node process that records every module it loads, that making either provider's client
// loads none of what only a call needs (zod and the API modules; grpc-js and protobufjs), and that a
// call loads what it needs.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
    const { configured, called, answer } = modulesLoaded(`
      const { resolveSecSettings } = await import(${JSON.stringify(dist('src/resources/sec/provider-config.js'))});
      const { createSecClient } = await import(${JSON.stringify(dist('src/clients/sec/client.js'))});
      const { createServer } = await import('node:http');
      const server = createServer((request, response) => {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"message":"no such channel"}');
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const env = { SEC_ACCOUNT: 'acme', SEC_API_TOKEN: 'tok', SEC_API_URL: 'http://127.0.0.1:' + server.address().port };
      const resolved = await resolveSecSettings({}, env, { warning() {} });
      const client = createSecClient({ ...resolved, userAgent: 'test' });
      await report('configured');
      const answer = await client.alertChannels.get('CHANNEL_1').then(() => 'answered', (e) => e.code);
      await report('called', answer);
      await client.close();
      server.close();
    `);
    expect(answer).to.equal('not_found');
    const apiModules = (urls: string[]) =>
      urls.filter((u) => /^src\/clients\/sec\/(alert-channels|cloud-accounts|policies|team-members)\.js$/.test(u));
    expect(configured, 'modules loaded to configure').to.include('src/clients/sec/client.js');
    expect(packages(configured), 'packages loaded to configure').to.not.include('zod');
    expect(apiModules(configured)).to.deep.equal([]);
    expect(configured, 'the profile reader, with credentials set').to.not.include('src/resources/sec/profile-file.js');
    expect(packages(called), 'packages loaded at the first call').to.include('zod');
    expect(apiModules(called)).to.deep.equal(['src/clients/sec/alert-channels.js']);
  });

  it('the vdb client loads grpc-js and the API’s protobuf types at its first call', function () {
    this.timeout(30_000);
    const { configured, called, answer } = modulesLoaded(`
      const { createVdbClient } = await import(${JSON.stringify(dist('src/clients/vdb/client.js'))});
      const { createServer } = await import('node:net');
      // A port that refuses connections: the call fails as unavailable, after loading what it needs.
      const server = createServer();
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = server.address().port;
      await new Promise((resolve) => server.close(resolve));
      const client = createVdbClient({ apiUrl: 'http://127.0.0.1:' + port, apiKey: 'key', userAgent: 'test', retry: { maxAttempts: 1 } });
      await report('configured');
      const answer = await client.clusters.get({ accountId: 'account', clusterId: 'cluster' }).then(() => 'answered', (e) => e.code);
      await report('called', answer);
      client.close();
    `);
    expect(answer).to.equal('unavailable');
    expect(configured, 'modules loaded to configure').to.include('src/clients/vdb/client.js');
    expect(packages(configured), 'packages loaded to configure').to.deep.equal([]);
    expect(configured).to.not.include('src/clients/vdb/transport.js');
    expect(packages(called), 'packages loaded at the first call').to.include.members(['@grpc/grpc-js', 'protobufjs']);
  });
});

/** A file of this build (tests run from dist/test). */
const dist = (path: string) => new URL(`../../${path}`, import.meta.url).href;

/**
 * The framework's package and what it depends on: loaded by every provider process before it is configured
 * (the engine answers ConfigureProvider), so no client's to put off.
 */
const FRAMEWORK_PACKAGES = (() => {
  const manifest = JSON.parse(
    readFileSync(new URL('../../../packages/framework/package.json', import.meta.url), 'utf8'),
  );
  return new Set<string>([manifest.name, ...Object.keys(manifest.dependencies)]);
})();

/** The packages among loaded module names, but the framework's own. */
const packages = (urls: string[]) => [
  ...new Set(
    urls
      .filter((u) => u.startsWith('node_modules/'))
      .map((u) =>
        u
          .split('/')
          .slice(1, u.includes('/@') ? 3 : 2)
          .join('/'),
      )
      .filter((name) => !FRAMEWORK_PACKAGES.has(name)),
  ),
];

/**
 * Runs `body` (an async module body) in a fresh Node process that records every module it loads;
 * `report(name, answer?)` in the body takes the modules loaded so far (under this build as
 * `src/…`, packages as `node_modules/<package>/…`). Returns each report's list and the answer given.
 */
function modulesLoaded(body: string): Record<string, string[]> & { answer: string } {
  // Every module URL the process loads reaches the main thread through the loader hook's port.
  const hook = [
    'let port;',
    'export function initialize(data) { port = data.port; }',
    'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }',
  ].join('\n');
  const script = `
    import { register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    import { setImmediate as turn } from 'node:timers/promises';
    const { port1, port2 } = new MessageChannel();
    const loaded = [];
    port1.on('message', (url) => loaded.push(url));
    port1.unref();
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}), { data: { port: port2 }, transferList: [port2] });
    const reports = {};
    const report = async (name, answer) => {
      await turn();
      await turn();
      reports[name] = [...loaded];
      if (answer !== undefined) reports.answer = answer;
    };
    ${body}
    // The loader hooks' thread keeps the process alive.
    process.stdout.write(JSON.stringify(reports), () => process.exit(0));
  `;
  const run = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 25_000,
  });
  expect(run.status, run.stderr).to.equal(0);
  const reports = JSON.parse(run.stdout) as Record<string, string[]> & { answer: string };
  const build = dist('');
  const named = (url: string) =>
    url.startsWith(build) ? url.slice(build.length) : url.replace(/^.*\/(node_modules\/)/, '$1');
  for (const [name, urls] of Object.entries(reports)) if (Array.isArray(urls)) reports[name] = urls.map(named);
  return reports;
}
