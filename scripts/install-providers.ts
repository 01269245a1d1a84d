/**
 * `npm run install-providers [-- --plugins-dir DIR]`, after `npm run build`: what `make install` is in
 * other provider repositories. Makes this machine's release packages of the repository's providers
 * (src/providers/project.ts) from the build (Node 22 inside, as users get them) and puts them in the
 * implicit local mirror Terraform and OpenTofu search on their own: `~/.terraform.d/plugins`
 * (`%APPDATA%\terraform.d\plugins` on Windows), in the packed layout
 * `<host>/<namespace>/<name>/terraform-provider-<name>_<version>_<os>_<arch>.zip`, once for Terraform's
 * host (registry.terraform.io) and once for OpenTofu's (registry.opentofu.org). `terraform init` then
 * installs `keel/sec` and `keel/vdb` from there, beside registry providers, with no CLI configuration.
 *
 * With `--pulumi`, each is also unpacked into the provider cache of pulumi-terraform-bridge's dynamic
 * provider (`$PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR`, else `$PULUMI_HOME/dynamic_tf_plugins`, else
 * `~/.pulumi/dynamic_tf_plugins`), under OpenTofu's host, the bridge's default: `pulumi package add
 * terraform-provider keel/sec 2.2.0` then takes it from there, and the package has the provider's
 * version (a local executable's is 0.0.0: the bridge has no way to ask it).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { unpackZip } from '../packages/framework/src/release/zip.js';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerArchiveName } from '../packages/framework/src/release/build.js';
import { currentPlatform } from '../packages/framework/src/release/runners.js';
import { projectRelease } from './release/project.js';
import { projectProvider, sourceAddress } from '../src/providers/project.js';

/** The hosts a source address without one (`keel/sec`) means: Terraform's default registry and OpenTofu's. */
const INSTALL_HOSTS = ['registry.terraform.io', 'registry.opentofu.org'] as const;

/** Terraform's implicit local mirror for this user (its "Implied Local Mirror Directories"). */
function implicitPluginsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32') {
    if (!env.APPDATA) throw new Error('APPDATA is not set, so the plugins folder is unknown: pass --plugins-dir');
    return join(env.APPDATA, 'terraform.d', 'plugins');
  }
  return join(env.HOME || homedir(), '.terraform.d', 'plugins');
}

/** Where the bridge's dynamic provider looks for a provider before it asks a registry. */
function pulumiProviderCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR) return env.PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR;
  return join(env.PULUMI_HOME || join(env.HOME || env.USERPROFILE || homedir(), '.pulumi'), 'dynamic_tf_plugins');
}

/** The host the bridge gives an address without one (`keel/sec`): OpenTofu's registry. */
const PULUMI_HOST = 'registry.opentofu.org';

const USAGE = 'usage: npm run install-providers [-- --plugins-dir DIR] [--pulumi]\n';

function fail(message: string, code: number): never {
  process.stderr.write(message);
  process.exit(code);
}

const args = process.argv.slice(2);
let pluginsDir: string | undefined;
let forPulumi = false;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--pulumi') forPulumi = true;
  else if (arg === '--plugins-dir' && args[i + 1] !== undefined) pluginsDir = args[++i];
  else if (arg.startsWith('--plugins-dir=')) pluginsDir = arg.slice('--plugins-dir='.length);
  else fail(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`, 2);
}

try {
  pluginsDir ??= implicitPluginsDir();
  const platform = currentPlatform();
  const outDir = mkdtempSync(join(tmpdir(), 'keel-install-'));
  try {
    const release = await projectRelease({ outDir, platforms: [platform], signingKey: '', log: () => undefined });
    for (const provider of release.providers) {
      const archive = provider.archives.find((a) => a.platform === platform)!;
      const { namespace } = projectProvider(provider.name);
      const source = sourceAddress({ namespace, name: provider.name });
      for (const host of INSTALL_HOSTS) {
        const dir = join(pluginsDir, host, namespace, archive.name);
        mkdirSync(dir, { recursive: true });
        copyFileSync(archive.archive, join(dir, providerArchiveName(archive.name, archive.version, platform)));
      }
      console.log(`installed ${source} ${archive.version} (${platform}) into ${pluginsDir}`);
      if (forPulumi) {
        const cache = pulumiProviderCache();
        const dir = join(cache, PULUMI_HOST, namespace, archive.name, archive.version, platform);
        rmSync(dir, { recursive: true, force: true });
        await unpackZip(archive.archive, dir);
        console.log(`installed ${source} ${archive.version} (${platform}) for Pulumi into ${cache}`);
      }
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
} catch (error) {
  fail(`install-providers failed: ${error instanceof Error ? error.message : String(error)}\n`, 1);
}
