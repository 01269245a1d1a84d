'use strict';
// The Windows executables of a release (@keel/provider-framework's release command, its windows.ts):
// each is Node's own node.exe with this script injected as a single executable application, started
// with the Node options of the /bin/sh launchers' exec line (the application's `execArgv`). Terraform runs
// terraform-provider-<name>_v<version>.exe, the emulator archives hold <name>-emulator.exe; the same
// executable serves every role, told by its own file name, and runs the checkout's loader and bundles
// from the folder it sits in (bin/, dist/), as the /bin/sh launchers of the other platforms do.
//
// A single executable's main script can require Node's built-in modules only, so everything is here.
// Required outside an executable (the tests), it runs nothing and exports what it does.
const { createRequire } = require('node:module');
const { basename, dirname, join } = require('node:path');

// Whether the provider's API clients read the trust store themselves (release/launchers.ts): the release
// sets it per provider.
const HAND_OVER_TRUST = true;
const PROVIDER = /^terraform-provider-([a-z0-9]+)_v[^\\/]+\.exe$/i;
const EMULATOR = /^([a-z0-9]+)-emulator\.exe$/i;

/**
 * What the /bin/sh launcher of a provider that hands its trust over does to the environment before it execs node (its trust
 * settings; README "Benchmarks": handshake), done to `env` here. Keep the two the same:
 * test/release/launchers.test.ts runs both over the same environments and compares what the provider
 * sees. Node itself has read NODE_EXTRA_CA_CERTS's name before this runs (it reads the file at the
 * first TLS context, into its default store), which the wrapper avoids; nothing of the provider's
 * uses the default store (its server and API clients name their CAs), so only that start-up cost
 * differs, and only where the variable is set.
 */
function handOverTrust(env) {
  if (env.NODE_EXTRA_CA_CERTS) {
    env.KEEL_NODE_EXTRA_CA_CERTS = env.NODE_EXTRA_CA_CERTS;
    delete env.NODE_EXTRA_CA_CERTS;
  }
  // Handed over even when empty, as the wrappers do: that is how src/clients/trust.ts tells the user's
  // values from the /dev/null set here.
  env.KEEL_SSL_CERT_FILE = env.SSL_CERT_FILE ?? '';
  env.KEEL_SSL_CERT_DIR = env.SSL_CERT_DIR ?? '';
  env.SSL_CERT_FILE = '/dev/null';
  env.SSL_CERT_DIR = '/dev/null';
}

/** The role of an executable by its file name: a provider or an emulator, and its name; or undefined. */
function roleOf(executable) {
  const file = basename(executable.split('\\').join('/'));
  const provider = PROVIDER.exec(file);
  if (provider) return { kind: 'provider', name: provider[1].toLowerCase() };
  const emulator = EMULATOR.exec(file);
  if (emulator) return { kind: 'emulator', name: emulator[1].toLowerCase() };
  return undefined;
}

function launch(executable, argv, env) {
  const role = roleOf(executable);
  if (!role) {
    process.stderr.write(
      `${basename(executable)}: cannot tell what to run from this file name: keep the name the release ` +
        'gave it (terraform-provider-<name>_v<version>.exe or <name>-emulator.exe)\n',
    );
    process.exit(1);
  }
  const dir = dirname(executable);
  // A single executable's argv is [executable, executable, ...arguments]: the name goes first, as the
  // wrappers pass it.
  argv.splice(2, 0, role.name);
  if (role.kind === 'provider') {
    if (HAND_OVER_TRUST) handOverTrust(env);
    createRequire(join(dir, 'bin', 'start-bundle.cjs'))('./start-bundle.cjs');
  } else {
    createRequire(join(dir, 'dist', 'bundle', 'emulator.cjs'))('./emulator.cjs');
  }
}

if (require('node:sea').isSea()) launch(process.execPath, process.argv, process.env);
else module.exports = { HAND_OVER_TRUST, handOverTrust, roleOf };
