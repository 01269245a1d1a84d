/**
 * `node dist/src/pulumi/main.js <sec|vdb> [--release [<host>/<namespace>/<name>]]`: prints the
 * provider's Pulumi package schema (JSON), with the parameterization that makes an SDK generated from
 * it run, through Pulumi's `terraform-provider` plugin, either this repository's
 * `bin/terraform-provider-<name>` (the default) or, with --release, the released provider by its
 * registry address (default registry.terraform.io/keel/<name>) at this checkout's version, so the SDK
 * does not depend on where a checkout is (README, "Pulumi").
 */
import { fileURLToPath } from 'node:url';
import { describeProvider } from './description.js';
import { buildPulumiSchema, type BuildOptions } from './schema.js';

const USAGE = 'usage: node dist/src/pulumi/main.js <sec|vdb> [--release [<host>/<namespace>/<name>]]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

const [name, ...rest] = process.argv.slice(2);
if (name !== 'sec' && name !== 'vdb') fail(name === undefined ? 'missing provider name' : `unknown provider: ${name}`);
let release: string | undefined;
if (rest.length > 0) {
  if (rest[0] !== '--release' || rest.length > 2) fail(`unexpected arguments: ${rest.join(' ')}`);
  release = rest[1] ?? `registry.terraform.io/keel/${name}`;
  // The bridge names the package after the address's type, so it must be this provider's.
  const address = /^([a-z0-9-]+(\.[a-z0-9-]+)*(:[0-9]+)?)\/([A-Za-z0-9][A-Za-z0-9_-]*)\/([a-z0-9_-]+)$/.exec(release);
  if (!address) fail(`--release takes a fully qualified registry address, <host>/<namespace>/${name}, not ${release}`);
  if (address[5] !== name) fail(`--release ${release} names provider type ${address[5]}, not ${name}`);
}
const description = await describeProvider(name);
const options: BuildOptions = release
  ? { registryProvider: { address: release, version: description.version } }
  : // Absolute: the SDK keeps the path as written, and runs from wherever the Pulumi program is.
    { localProviderPath: fileURLToPath(new URL(`../../../bin/terraform-provider-${name}`, import.meta.url)) };
const schema = buildPulumiSchema(description, options);
process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
