/**
 * sec's contract: every request body the API validates, by name, each field's rules written once
 * (docs/decisions.md, "One contract per platform"). The emulator validates with these specs, the
 * provider's plan checks are derived from them (src/resources/sec/rules.ts), `/openapi.json` is their
 * JSON Schema, and docs/api/sec.md's table of field rules is generated from them.
 *
 * A body is named by its collection (`Policies`), with `:<variant>` where one collection takes several
 * (`Policies:update`, `AlertChannels:EmailUser`, the `data` of that channel type). A field is named by
 * its body and its path: `Policies.limit`, `AlertChannels:EmailUser.channelProps.recipients[]` (`[]`
 * for a list's items).
 */
import { ACCESS_TOKEN_BODIES } from './access-tokens.js';
import { AGENT_ACCESS_TOKEN_BODIES } from './agent-access-tokens.js';
import { ALERT_CHANNEL_BODIES } from './alert-channels.js';
import { ALERT_PROFILE_BODIES } from './alert-profiles.js';
import { ALERT_RULE_BODIES } from './alert-rules.js';
import { CLOUD_ACCOUNT_BODIES } from './cloud-accounts.js';
import { CONTAINER_REGISTRY_BODIES } from './container-registries.js';
import { DATA_EXPORT_RULE_BODIES } from './data-export-rules.js';
import { INTEGRATION_BODIES } from './integrations.js';
import { INVENTORY_BODIES } from './inventory.js';
import type { ContractBodies, FieldSpec } from './language.js';
import { METRICS_BODIES } from './metrics.js';
import { POLICY_EXCEPTION_BODIES } from './policy-exceptions.js';
import { POLICY_BODIES } from './policies.js';
import { QUERY_BODIES } from './queries.js';
import { REPORT_RULE_BODIES } from './report-rules.js';
import { RESOURCE_GROUP_BODIES } from './resource-groups.js';
import { TEAM_MEMBER_BODIES } from './team-members.js';
import { VULNERABILITY_EXCEPTION_BODIES } from './vulnerability-exceptions.js';

export * from './language.js';
export { jsonSchemaOf, type JsonSchema } from './json-schema.js';

const PARTS: readonly ContractBodies[] = [
  ACCESS_TOKEN_BODIES,
  AGENT_ACCESS_TOKEN_BODIES,
  ALERT_CHANNEL_BODIES,
  ALERT_PROFILE_BODIES,
  ALERT_RULE_BODIES,
  CLOUD_ACCOUNT_BODIES,
  CONTAINER_REGISTRY_BODIES,
  DATA_EXPORT_RULE_BODIES,
  INTEGRATION_BODIES,
  INVENTORY_BODIES,
  METRICS_BODIES,
  POLICY_BODIES,
  POLICY_EXCEPTION_BODIES,
  QUERY_BODIES,
  REPORT_RULE_BODIES,
  RESOURCE_GROUP_BODIES,
  TEAM_MEMBER_BODIES,
  VULNERABILITY_EXCEPTION_BODIES,
];

/** Every body of the contract, by name; a name given twice fails at load. */
export const SEC_CONTRACT: ContractBodies = Object.freeze(
  PARTS.reduce<Record<string, FieldSpec>>((all, part) => {
    for (const [name, spec] of Object.entries(part)) {
      if (Object.hasOwn(all, name)) throw new Error(`sec contract: the body ${name} is named twice`);
      all[name] = spec;
    }
    return all;
  }, {}),
);

/** A field of the contract and where it is. */
export interface ContractField {
  /** `Policies.limit`. */
  readonly name: string;
  readonly spec: FieldSpec;
}

/**
 * The spec of the field `name` (`<body>.<path>`, `[]` for a list's items); throws, naming what is
 * missing, for a name the contract does not have. A field name holding a dot (`feature.data`) is
 * found too: the longest name that matches is taken first.
 */
export function contractField(name: string): FieldSpec {
  // The body's name ends at its first field (`.`) or at its items (`[]`, a body that is a list).
  const end = name.search(/\.|\[\]/);
  const bodyName = end < 0 ? name : name.slice(0, end);
  const body = SEC_CONTRACT[bodyName];
  if (!body) throw new Error(`sec contract: there is no body ${bodyName} (in ${name})`);
  const path = end < 0 ? '' : name.slice(end).replace(/^\./, '');
  const found = walk(body, path);
  if (!found) throw new Error(`sec contract: ${bodyName} has no field ${path}`);
  return found;
}

/** Whether the contract has the field `name` (`Queries:update.queryText`). */
export function hasContractField(name: string): boolean {
  try {
    contractField(name);
    return true;
  } catch {
    return false;
  }
}

function walk(spec: FieldSpec, path: string): FieldSpec | undefined {
  if (path === '') return spec;
  if (path.startsWith('[]')) {
    if (spec.kind !== 'array') return undefined;
    return walk(spec.items, path.slice(2).replace(/^\./, ''));
  }
  if (spec.kind !== 'object') return undefined;
  const names = Object.keys(spec.fields)
    .filter((key) => path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[]`))
    .sort((a, b) => b.length - a.length);
  for (const key of names) {
    const found = walk(spec.fields[key]!, path.slice(key.length).replace(/^\./, ''));
    if (found) return found;
  }
  return undefined;
}

/** Every field of the contract, by name, depth first (a body's own entry is its name alone). */
export function contractFields(): ContractField[] {
  const out: ContractField[] = [];
  const visit = (name: string, spec: FieldSpec): void => {
    out.push({ name, spec });
    if (spec.kind === 'object') for (const [key, item] of Object.entries(spec.fields)) visit(`${name}.${key}`, item);
    if (spec.kind === 'array') visit(`${name}[]`, spec.items);
  };
  for (const [name, spec] of Object.entries(SEC_CONTRACT)) visit(name, spec);
  return out;
}
