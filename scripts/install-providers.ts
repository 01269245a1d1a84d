/**
 * `npm run install-providers [-- --plugins-dir DIR]`, after `npm run build`: what `make install` is in
 * other provider repositories. Makes this machine's release packages of both providers from the build
 * (Node 22 inside, as users get them) and puts them in the implicit local mirror Terraform and OpenTofu search on their own:
 * `~/.terraform.d/plugins` (`%APPDATA%\terraform.d\plugins` on Windows), in the packed layout
 * `<host>/keel/<name>/terraform-provider-<name>_<version>_<os>_<arch>.zip`, once for Terraform's host
 * (registry.terraform.io) and once for OpenTofu's (registry.opentofu.org). `terraform init` then
 * installs `keel/sec` and `keel/vdb` from there, beside registry providers, with no CLI configuration.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAMESPACE, buildRelease, currentPlatform, providerArchiveName } from './release/build.js';

/** The hosts whose addresses `keel/<name>` means: Terraform's default registry and OpenTofu's. */
const INSTALL_HOSTS = ['registry.terraform.io', 'registry.opentofu.org'] as const;

/** Terraform's implicit local mirror for this user (its "Implied Local Mirror Directories"). */
function implicitPluginsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32') {
    if (!env.APPDATA) throw new Error('APPDATA is not set, so the plugins folder is unknown: pass --plugins-dir');
    return join(env.APPDATA, 'terraform.d', 'plugins');
  }
  return join(env.HOME || homedir(), '.terraform.d', 'plugins');
}

const USAGE = 'usage: npm run install-providers [-- --plugins-dir DIR]\n';

function fail(message: string, code: number): never {
  process.stderr.write(message);
  process.exit(code);
}

const args = process.argv.slice(2);
let pluginsDir: string | undefined;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--plugins-dir' && args[i + 1] !== undefined) pluginsDir = args[++i];
  else if (arg.startsWith('--plugins-dir=')) pluginsDir = arg.slice('--plugins-dir='.length);
  else fail(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`, 2);
}

try {
  pluginsDir ??= implicitPluginsDir();
  const platform = currentPlatform();
  const outDir = mkdtempSync(join(tmpdir(), 'keel-install-'));
  try {
    const release = await buildRelease({ outDir, platforms: [platform], signingKey: '', log: () => undefined });
    for (const provider of release.providers) {
      const archive = provider.archives.find((a) => a.platform === platform)!;
      for (const host of INSTALL_HOSTS) {
        const dir = join(pluginsDir, host, NAMESPACE, archive.name);
        mkdirSync(dir, { recursive: true });
        copyFileSync(archive.archive, join(dir, providerArchiveName(archive.name, archive.version, platform)));
      }
      console.log(`installed keel/${archive.name} ${archive.version} (${platform}) into ${pluginsDir}`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
} catch (error) {
  fail(`install-providers failed: ${error instanceof Error ? error.message : String(error)}\n`, 1);
}
