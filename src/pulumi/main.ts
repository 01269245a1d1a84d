/**
 * `node dist/src/pulumi/main.js <sec|vdb>`: prints the provider's Pulumi package schema (JSON), with
 * the parameterization that makes an SDK generated from it run this repository's
 * `bin/terraform-provider-<name>` through Pulumi's `terraform-provider` plugin.
 */
import { fileURLToPath } from 'node:url';
import { describeProvider } from './description.js';
import { buildPulumiSchema } from './schema.js';

const name = process.argv[2];
if (name !== 'sec' && name !== 'vdb') {
  process.stderr.write('usage: node dist/src/pulumi/main.js <sec|vdb>\n');
  process.exit(2);
}
// Absolute: the SDK keeps the path as written, and runs from wherever the Pulumi program is.
const localProviderPath = fileURLToPath(new URL(`../../../bin/terraform-provider-${name}`, import.meta.url));
const schema = buildPulumiSchema(await describeProvider(name), { localProviderPath });
process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
