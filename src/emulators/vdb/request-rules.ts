/**
 * The field and message rules every request must meet before its handler runs: the API's own
 * protovalidate annotations in proto/vdb/** (docs/api/vdb.md, "Field rules"), checked by protovalidate
 * itself over the request's bytes, as the platform does. Handlers keep only what a rule of one message
 * cannot say: that a named object exists, that a package is offered where the cluster is placed.
 */
import { fromBinary, type DescMessage } from '@bufbuild/protobuf';
import { pathToString } from '@bufbuild/protobuf/reflect';
import { createValidator, type Validator } from '@bufbuild/protovalidate';
import { vdbRulesRegistry } from '../../wire/vdb-rules.js';
import { Violations } from './errors.js';

let validator: Validator | undefined;
const schemas = new Map<string, DescMessage>();

function schemaOf(typeName: string): DescMessage {
  let schema = schemas.get(typeName);
  if (!schema) {
    schema = vdbRulesRegistry().getMessage(typeName);
    if (!schema) throw new Error(`no descriptor for ${typeName} in the API's rules`);
    schemas.set(typeName, schema);
  }
  return schema;
}

/**
 * The violations of the request `bytes` of type `typeName` (`vdb.cloud.cluster.v1.CreateClusterRequest`),
 * in the platform's words, or undefined when it meets every rule. The bytes have decoded already.
 */
export function requestViolations(typeName: string, bytes: Uint8Array): Violations | undefined {
  validator ??= createValidator({ registry: vdbRulesRegistry() });
  const schema = schemaOf(typeName);
  const result = validator.validate(schema, fromBinary(schema, bytes));
  if (result.kind === 'valid') return undefined;
  // A rule that cannot be evaluated is the API's fault, not the client's: the caller answers INTERNAL.
  if (result.kind === 'error') throw result.error;
  const violations = new Violations();
  for (const violation of result.error.violations) {
    violations.add(pathToString(violation.field), violation.message, violation.ruleId);
  }
  return violations;
}
