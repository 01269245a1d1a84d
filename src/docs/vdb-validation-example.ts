/**
 * docs/api/vdb.md's example of a validation error, as the emulator answers it: a create whose node count
 * and label key break their rules, judged by the same protovalidate rules and written by the same
 * `Violations` the emulator answers with, so that a rule changed in a .proto changes the example too.
 */
import { create } from '@bufbuild/protobuf';
import { pathToString } from '@bufbuild/protobuf/reflect';
import { createValidator } from '@bufbuild/protovalidate';
import { Violations } from '../emulators/vdb/errors.js';
import { vdbRulesRegistry } from '../wire/vdb-rules.js';

export const VDB_VALIDATION_EXAMPLE_BLOCK = 'vdb validation error';

/** The fields the example breaks; the request's other rules (its ids, say) are left out of it. */
const SHOWN = ['cluster.configuration.number_of_nodes', 'cluster.labels[0].key'];

export function vdbValidationExampleBlock(): string {
  const registry = vdbRulesRegistry();
  const schema = registry.getMessage('vdb.cloud.cluster.v1.CreateClusterRequest');
  if (!schema) throw new Error('no CreateClusterRequest in the API rules');
  const request = create(schema, {
    cluster: { configuration: { numberOfNodes: 0 }, labels: [{ key: 'Not a key!', value: 'x' }] },
  } as never);
  const result = createValidator({ registry }).validate(schema, request);
  if (result.kind !== 'invalid') throw new Error('the example request meets every rule: break one it shows');
  const violations = new Violations();
  for (const v of result.error.violations) {
    const path = pathToString(v.field);
    if (SHOWN.includes(path)) violations.add(path, v.message, v.ruleId);
  }
  return `\`\`\`\n${violations.text()}\n\`\`\`\n`;
}
