/**
 * Resource identity (Terraform 1.12 and later, protocol 6.9), written once for every resource: the
 * identity's type, its value computed from a state, comparison and rendering for messages. The
 * identity is the set of values that name an object for its whole life; Terraform keeps it beside
 * the state and checks only that it is known and well typed. That it never changes is for the
 * provider to guarantee, which the engine does with these functions (resource-identity.ts).
 */
import type { Fields } from '../../schema/define.js';
import { objectOf, STRING, type CtyType } from '../../schema/cty-type.js';
import { Unknown, type ObjectValue, type Value } from '../../schema/value.js';
import { formatValue } from '../../schema/value-ops.js';
import type { IdentityDef, IdentityModel } from '../contracts/index.js';
import type { Diagnostics } from '../diagnostics/index.js';

/**
 * Identity attributes are strings; the identity is an object of them (Terraform forbids maps, sets
 * and objects inside).
 */
const identityTypes = new WeakMap<IdentityDef<any, any>, CtyType>();

export function identityType(def: IdentityDef<any, any>): CtyType {
  let type = identityTypes.get(def);
  if (!type) {
    type = objectOf(Object.fromEntries(Object.keys(def.attributes).map((name) => [name, STRING])));
    identityTypes.set(def, type);
  }
  return type;
}

/** The state attribute an identity attribute is taken from. */
export const sourceOf = (def: IdentityDef<any, any>, name: string): string => def.attributes[name]!.from ?? name;

/**
 * The identity of the object a state describes. An attribute whose source is unknown (a plan) is
 * unknown; one whose source is null or empty is the provider's default where the attribute has one
 * (given the configured provider's client), else null.
 */
export function identityOfState<C>(def: IdentityDef<any, C>, state: ObjectValue, client?: C): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, a] of Object.entries(def.attributes)) {
    let v = state[sourceOf(def, name)] ?? null;
    if ((v === null || v === '') && a.providerDefault && client !== undefined) v = a.providerDefault(client);
    out[name] = typeof v === 'string' ? (a.derive ? a.derive(v) : v) : v instanceof Unknown ? v : null;
  }
  return out;
}

/** The identity attributes that have no value (null); unknown ones are not missing. */
export function missingAttributes(identity: ObjectValue): string[] {
  return Object.entries(identity)
    .filter(([, v]) => v === null || v === '')
    .map(([name]) => name);
}

/** The attributes whose known values differ (an unknown one differs from nothing). */
export function changedAttributes(before: ObjectValue, after: ObjectValue): string[] {
  return Object.keys(before).filter((name) => {
    const a = before[name] ?? null;
    const b = after[name] ?? null;
    return !(a instanceof Unknown) && !(b instanceof Unknown) && a !== b;
  });
}

/** `{ account_id = "…", id = "…" }`, as Terraform prints an identity. */
export function formatIdentity(def: IdentityDef<any, any>, identity: ObjectValue): string {
  return formatValue(identityType(def), identity);
}

/** An identity as resource code sees it (unknown values as null). */
export function identityModel(identity: ObjectValue): IdentityModel {
  return Object.fromEntries(Object.entries(identity).map(([name, v]) => [name, typeof v === 'string' ? v : null]));
}

/**
 * Where an import by identity starts when the resource names no way of its own: each identity
 * attribute's value in the attribute it comes from.
 */
export function importStartFromIdentity(
  def: IdentityDef<any, any>,
  identity: IdentityModel,
): Record<string, string | null> {
  const start: Record<string, string | null> = {};
  for (const [name, a] of Object.entries(def.attributes)) {
    // A derived value cannot be turned back; such identities declare `importState` (checked by the schema invariants).
    if (a.derive)
      throw new Error(`identity attribute ${name} is derived; the resource must declare identity.importState`);
    start[sourceOf(def, name)] = identity[name] ?? null;
  }
  return start;
}

/** Problems of an identity declaration against the resource's fields (tests and the schema invariants use it). */
export function identityDeclarationProblems(def: IdentityDef<any, any>, fields: Fields): string[] {
  const problems: string[] = [];
  const names = Object.keys(def.attributes);
  if (names.length === 0) problems.push('declares no identity attribute');
  for (const name of names) {
    if (!/^[a-z][a-z0-9_]*$/.test(name))
      problems.push(`identity attribute ${JSON.stringify(name)} is not a valid attribute name`);
    const source = sourceOf(def, name);
    const f = fields[source];
    if (f?.kind !== 'attr' || f.type.cty.kind !== 'string')
      problems.push(
        `identity attribute ${name} comes from ${JSON.stringify(source)}, which is not a string attribute of the ` +
          `resource`,
      );
    else if (f.options.writeOnly || f.options.sensitive) {
      if (!def.attributes[name]!.derive) problems.push(`identity attribute ${name} would reveal the secret ${source}`);
    }
    if (def.attributes[name]!.derive && !def.importState)
      problems.push(`identity attribute ${name} is derived, so the identity needs its own importState`);
  }
  if (names.every((n) => def.attributes[n]!.forImport !== 'required'))
    problems.push('no identity attribute is required for import');
  return problems;
}

// The rules the engine holds every identity to, as diagnostics (resource-identity.ts).

/** Attribute names as a message quotes them: `a`, `b`. */
export function quoted(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(', ');
}

/**
 * Adds an error when the prior or planned state of an existing object lacks what names it; returns
 * whether it did. This provider never writes such a state (an object is recorded only once it has
 * its id, and a plan keeps it), so the request is at fault, not the provider, and identity changes
 * cannot be judged from it.
 */
export function lacksIdentity(
  typeName: string,
  which: 'prior' | 'planned',
  identity: ObjectValue,
  diags: Diagnostics,
): boolean {
  const missing = missingAttributes(identity);
  if (missing.length === 0) return false;
  diags.error(
    `Invalid ${which} state`,
    `The ${which} state of this ${typeName} lacks ${quoted(missing)}, which name the object, so it does not ` +
      'name an object this provider manages. Remove it from the state (`terraform state rm`) and import the object.',
  );
  return true;
}

/** Adds an error when an identity after a read, create or update lacks a value; returns whether it did. */
export function identityIncomplete(
  typeName: string,
  def: IdentityDef<any, any>,
  identity: ObjectValue,
  after: string,
  diags: Diagnostics,
): boolean {
  const missing = missingAttributes(identity);
  if (missing.length === 0) return false;
  diags.error(
    'Incomplete resource identity',
    `After the ${after} of this ${typeName}, its identity lacks ${quoted(missing)}: ` +
      `${formatIdentity(def, identity)}. This is a bug in the provider; please report it.`,
  );
  return true;
}

/** Adds an error naming both identities when they differ. */
export function identityUnchanged(
  typeName: string,
  def: IdentityDef<any, any>,
  before: ObjectValue,
  after: ObjectValue,
  during: string,
  diags: Diagnostics,
): void {
  if (changedAttributes(before, after).length === 0) return;
  diags.error(
    'Resource identity changed',
    `During the ${during} of this ${typeName}, its identity changed from ${formatIdentity(def, before)} to ` +
      `${formatIdentity(def, after)}. An object's identity never changes, so this is not the object ` +
      'Terraform manages under that identity. This is a bug in the provider; please report it.',
  );
}

export type { Value };
