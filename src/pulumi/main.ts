/** `node dist/src/pulumi/main.js <sec|vdb>`: prints the provider's Pulumi package schema (JSON). */
import { describeProvider } from '../providers/describe.js';
import { buildPulumiSchema } from './schema.js';

const name = process.argv[2];
if (name !== 'sec' && name !== 'vdb') {
  process.stderr.write('usage: node dist/src/pulumi/main.js <sec|vdb>\n');
  process.exit(2);
}
const schema = buildPulumiSchema(await describeProvider(name));
process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
