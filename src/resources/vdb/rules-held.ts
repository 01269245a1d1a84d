/**
 * The rules of proto/vdb the provider holds itself, not by an attribute's derived checks (./rules.ts,
 * `apiRules`): the CEL rules of whole messages and rules across one message's fields, claimed by the code
 * that checks each, and the rules a resource's schema holds (a required block, a distinct list). Each is
 * declared next to what holds it, with what the claim is tried on. The coverage and agreement tests
 * (test/resources/vdb/api-rules.test.ts) hold every such rule of the .proto files to a claim, each code
 * claim to protovalidate's own verdict on its samples, and each schema claim to the resource's schema; the
 * page shows where (docs/api/vdb.md, "Field rules").
 */
import { Diagnostics } from '@keel/provider-framework';

const PACKAGE = 'vdb.cloud.';

export interface CodeClaim<S> {
  /** The message, without the package: `cluster.v1.Toleration`. */
  readonly message: string;
  /** The rules it covers: a CEL rule of the message by id, a field's rule as `<field>#<rule>` (`cert#required`). */
  readonly rules: readonly string[];
  /** Where the provider checks them, for the page: `common.ts: checkTolerations`. */
  readonly where: string;
  /** Values at and around the rules, in what the provider's check reads (made when the claim is tried). */
  readonly samples: () => readonly S[];
  /**
   * What the plan reports for a sample (nothing: it takes it): the check the claim names, run as the plan
   * runs it. Left out where no configuration reaches the rule: the provider never sends what breaks it.
   */
  readonly planReports?: (sample: S, diags: Diagnostics) => void;
  /** What the provider sends for a sample, in the proto's JSON form; undefined when it sends nothing. */
  readonly sent: (sample: S) => unknown;
  /**
   * The message that says all a sample says, where the provider sends less of it (it keeps one kind of a
   * rule the configuration may name two of): the plan must refuse exactly the samples whose message as
   * written breaks a rule. `sent` by default.
   */
  readonly literal?: (sample: S) => unknown;
}

/**
 * A rule the schema of resource `type` holds: its `attribute` (a path of names) is a required block, a
 * distinct list, or at most one block.
 */
export interface SchemaHold {
  readonly type: string;
  readonly attribute: string;
  readonly as: 'required' | 'distinct' | 'at most one';
}

export type Held = { readonly where: string } & (
  | { readonly code: CodeClaim<unknown> }
  | { readonly schema: SchemaHold }
);

const held = new Map<string, Held>();

function hold(name: string, how: Held): void {
  if (held.has(name)) throw new Error(`vdb: the rule ${name} is claimed twice`);
  held.set(name, how);
}

/** A rule's full name: `vdb.cloud.cluster.v1.Toleration#toleration.equal_value`, `….Tls.cert#required`. */
const fullName = (message: string, rule: string): string =>
  rule.includes('#') ? `${PACKAGE}${message}.${rule}` : `${PACKAGE}${message}#${rule}`;

/** Records that the provider's code checks the rules `claim.rules` of `claim.message`, where `claim.where` says. */
export function heldInCode<S>(claim: CodeClaim<S>): void {
  for (const rule of claim.rules)
    hold(fullName(claim.message, rule), { where: claim.where, code: claim as CodeClaim<unknown> });
}

/** Records that a resource's schema holds the field rule `rule` (`cluster.v1.Cluster.configuration#required`). */
export function heldBySchema(rule: string, schema: SchemaHold): void {
  hold(`${PACKAGE}${rule}`, { where: `${schema.type}: \`${schema.attribute}\` is ${schema.as}`, schema });
}

/** Every rule held so, by its full name. */
export const heldRules = (): ReadonlyMap<string, Held> => held;

/** The errors the plan reports for a sample of `claim` (none where the claim has no plan check). */
export function planErrors<S>(claim: CodeClaim<S>, sample: S): string[] {
  const diags = new Diagnostics();
  claim.planReports?.(sample, diags);
  return diags.items.filter((d) => d.severity === 'error').map((d) => `${d.summary}: ${d.detail}`);
}

/** Every combination of the values given for each key: the samples of a claim over several fields. */
export function combinations<T extends Record<string, readonly unknown[]>>(
  values: T,
): { -readonly [K in keyof T]: T[K][number] }[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [key, options] of Object.entries(values))
    out = out.flatMap((partial) => options.map((option) => ({ ...partial, [key]: option })));
  return out as { -readonly [K in keyof T]: T[K][number] }[];
}
