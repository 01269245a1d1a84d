/**
 * How a released provider starts, written once for every platform and for a checkout:
 *
 * - macOS and Linux: a /bin/sh launcher that finds its own folder and execs Node on the loader
 *   (`bin/start-bundle.cjs`) with the provider's name. In a release Node is the runtime beside it
 *   (`runtime/node`); in a checkout (the repository's bin/terraform-provider-<name>, made from the same
 *   text) it is `node` from PATH and the loader sits beside the launcher;
 * - Windows: a Node single executable application (./windows.ts) of `start-windows.cjs`, started with
 *   the same Node options as its `execArgv`, which does to the environment in JavaScript what the
 *   launcher's lines do (test/release/launchers.test.ts runs both and compares).
 *
 * A provider whose API clients read the system's trust store themselves (sec and vdb:
 * src/clients/trust.ts) starts with Node's own store left empty, which saves parsing Node's roots at
 * each start: `handOverTrust`. Any other provider leaves the environment as Terraform gave it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LaunchSettings {
  /** Whether the user's trust settings are handed to the provider under KEEL_ names (see the header). */
  readonly handOverTrust: boolean;
  /** Node's options on the exec line (and the Windows executable's `execArgv`). */
  readonly nodeOptions: readonly string[];
}

/** The options a provider that hands its trust over starts Node with: no default store to parse. */
export const TRUST_HANDOVER_NODE_OPTIONS: readonly string[] = ['--use-openssl-ca'];

const PROVIDER_HEADER = `#!/bin/sh
# Terraform execs this launcher with no arguments and no shell. It finds its own directory even when
# reached through symlinks (with parameter expansion rather than dirname, so no process is forked on
# the usual path), then uses exec so that node replaces this shell: no grandchild may hold the pipes,
# and Terraform's kill reaches the provider itself. The provider runs from its bundle, loaded with
# V8's code cache by start-bundle.cjs.
`;

/** Where the launcher is: `$dir`, even through symlinks. */
const SELF_LOCATION = `self=$0
hops=0
while [ -L "$self" ] && [ "$hops" -lt 40 ]; do
  hops=$((hops + 1))
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=\${self%/*}/$link ;;
  esac
done
# The kernel passes the path it executed, so $self holds a slash; node resolves the rest.
case $self in
  */*) dir=\${self%/*} ;;
  *) dir=. ;;
esac
`;

const TRUST_HANDOVER = `# Node's default trust store is left empty (--use-openssl-ca over no OpenSSL files): otherwise
# building the provider's own mTLS server context parses all of Node's bundled roots, and the file
# SSL_CERT_FILE names (~25 ms each, every start). The provider's API clients read the trust themselves
# when they first connect (Node's roots, the system's store as Go reads it, SSL_CERT_FILE,
# SSL_CERT_DIR and NODE_EXTRA_CA_CERTS), so the user's values are handed over under KEEL_ names, the
# SSL_CERT_* ones even when empty (that is how the clients tell them from the /dev/null set here).
if [ -n "\${NODE_EXTRA_CA_CERTS-}" ]; then
  KEEL_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS
  export KEEL_NODE_EXTRA_CA_CERTS
  unset NODE_EXTRA_CA_CERTS
fi
KEEL_SSL_CERT_FILE=\${SSL_CERT_FILE-}
KEEL_SSL_CERT_DIR=\${SSL_CERT_DIR-}
SSL_CERT_FILE=/dev/null
SSL_CERT_DIR=/dev/null
export KEEL_SSL_CERT_FILE KEEL_SSL_CERT_DIR SSL_CERT_FILE SSL_CERT_DIR
`;

const shellOptions = (options: readonly string[]) => options.map((option) => ` ${option}`).join('');

/**
 * The provider's /bin/sh launcher: `release` runs the runtime beside it on bin/start-bundle.cjs;
 * `checkout` runs `node` from PATH on the start-bundle.cjs beside it.
 */
export function shellLauncher(name: string, settings: LaunchSettings, where: 'release' | 'checkout'): string {
  const [node, loader] =
    where === 'release' ? ['"$dir/runtime/node"', '"$dir/bin/start-bundle.cjs"'] : ['node', '"$dir/start-bundle.cjs"'];
  const trust = settings.handOverTrust ? TRUST_HANDOVER : '';
  const exec = `exec ${node}${shellOptions(settings.nodeOptions)} ${loader} ${name} "$@"\n`;
  return `${PROVIDER_HEADER}${SELF_LOCATION}${trust}${exec}`;
}

/** An emulator's /bin/sh launcher: the same self-location, then the runtime on the emulator's bundle. */
export function emulatorLauncher(name: string): string {
  const header = `#!/bin/sh\n# The ${name} emulator, run by the runtime beside it.\n`;
  const exec = `exec "$dir/runtime/node" "$dir/dist/bundle/emulator.cjs" ${name} "$@"\n`;
  return `${header}${SELF_LOCATION}${exec}`;
}

/** The folder of the loader scripts a release ships (copied beside this module by the build). */
export const LOADER_DIR = dirname(fileURLToPath(import.meta.url));

/** bin/start-bundle.cjs of a release: runs a provider's bundles with their code caches. */
export const bundleLoader = (): Buffer => readFileSync(join(LOADER_DIR, 'start-bundle.cjs'));

/**
 * The Windows executable's main script: start-windows.cjs with `handOverTrust` set as the provider
 * asks. Every provider of one release must agree (one executable serves them all).
 */
export function windowsMain(handOverTrust: boolean): Buffer {
  const text = readFileSync(join(LOADER_DIR, 'start-windows.cjs'), 'utf8');
  const marker = 'const HAND_OVER_TRUST = true;';
  if (!text.includes(marker)) throw new Error(`start-windows.cjs lost its line ${JSON.stringify(marker)}`);
  return Buffer.from(handOverTrust ? text : text.replace(marker, 'const HAND_OVER_TRUST = false;'));
}
