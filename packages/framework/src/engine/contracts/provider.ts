/**
 * What a provider module declares: its configuration and the client it makes, the types and functions
 * it serves, and what the engine's checks and create records need of it.
 */
import type { ArgumentRule } from '../../schema/argument-rules.js';
import type { ConfigModelOf, Fields, ModelOf, PlatformLimits, ResourceSchema } from '../../schema/define.js';
import type { CreateSettings } from './create-settings.js';
import type { Diagnostics, Logger } from '../diagnostics/index.js';
import type { FunctionDef } from '../functions/index.js';
import type { ReferenceKinds } from './references.js';
import type { ActionDef } from './action.js';
import type { DataSourceDef } from './data-source.js';
import type { EphemeralDef } from './ephemeral.js';
import type { ResourceDef } from './resource.js';
import { fieldProblems } from './field-declarations.js';

export interface ConfigureContext {
  readonly terraformVersion: string;
  readonly diags: Diagnostics;
  readonly log: Logger;
  readonly env: NodeJS.ProcessEnv;
}

export interface ProviderDef<F extends Fields, C> {
  /** Its source address: `namespace/name`, on `hostname` (registry.terraform.io when absent). */
  readonly name: string;
  readonly namespace?: string;
  readonly hostname?: string;
  readonly version: string;
  readonly schema: ResourceSchema<F>;
  configure(config: ModelOf<F>, ctx: ConfigureContext): Promise<C>;
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
  readonly resources: readonly ResourceDef<any, C>[];
  readonly dataSources: readonly DataSourceDef<any, C>[];
  readonly ephemeralResources?: readonly EphemeralDef<any, C>[];
  /** Actions (Terraform 1.14 and later). */
  readonly actions?: readonly ActionDef<any, C>[];
  /** Functions, `provider::<name>::<function>(…)` (Terraform 1.8 and later): engine/functions/. */
  readonly functions?: readonly FunctionDef[];
  /** What the platform takes in one request, checked for every value at plan time. */
  readonly limits?: PlatformLimits;
  /** How the platform lists the objects arguments name (`refersTo`), checked at plan: engine/catalogue/. */
  readonly references?: ReferenceKinds<C>;
  /**
   * Where the configured client's requests go (host, account; never a credential): records of creates are
   * kept per address (engine/journal/create-journal.ts). The create settings (create-settings.ts), their
   * variables' prefix.
   */
  apiAddress?(client: C): string;
  createSettings?(config: ModelOf<F>, env: NodeJS.ProcessEnv): CreateSettings;
  readonly environmentPrefix?: string;
}

/** Returns the definition as it is, typed, so that a module needs no annotations. */
export const provider = <F extends Fields, C>(def: ProviderDef<F, C>): ProviderDef<F, C> => def;

/**
 * What is wrong with a provider's declarations, each named by its type and field ("resource type
 * kv_entry: value cannot be required and optional/computed"); none when all is well. The schemas are
 * built on first use (packages/framework/src/schema/define.ts), so a mistake would otherwise show only at the first
 * call
 * that needs the type, as a broken request. The framework's `serve` and its harness ask before anything
 * else.
 */
export function declarationProblems(def: ProviderDef<any, any>): string[] {
  const problems: string[] = [];
  const check = (what: string, schema: ResourceSchema<Fields>, argumentRules?: readonly ArgumentRule[]) => {
    try {
      void schema.block;
    } catch (err) {
      problems.push(`${what}: ${(err instanceof Error ? err.message : String(err)).replace(/^schema: /, '')}`);
    }
    problems.push(...fieldProblems(what, schema.fields));
    for (const rule of argumentRules ?? [])
      for (const name of rule.names.filter((n) => schema.fields[n]?.kind !== 'attr'))
        problems.push(`${what}: its rule ${rule.kind} names \`${name}\`, which is no top-level argument`);
    // Limits of operations: a resource's, under the name configurations give them.
    const timed = Object.entries(schema.fields).filter(([, f]) => f.kind === 'attr' && f.options.timeouts);
    for (const [name] of timed)
      if (name !== 'timeouts' || !what.startsWith('resource type '))
        problems.push(`${what}: \`${name}\` is a timeouts attribute, which only a resource has, named \`timeouts\``);
  };
  check(`the provider ${def.name}'s settings`, def.schema);
  for (const r of def.resources) {
    check(`resource type ${r.typeName}`, r.schema, r.argumentRules);
    if (r.list) check(`list resource ${r.typeName}`, r.list.schema);
    // A listing's items are found by the id findCreated imports an object by: without it none is ever found.
    if (r.readsByListing && !r.findCreated)
      problems.push(
        `resource type ${r.typeName}: readsByListing needs findCreated, whose importId names the object in the listing`,
      );
  }
  for (const d of def.dataSources) check(`data source ${d.typeName}`, d.schema, d.argumentRules);
  for (const e of def.ephemeralResources ?? []) check(`ephemeral resource ${e.typeName}`, e.schema);
  for (const a of def.actions ?? []) check(`action ${a.typeName}`, a.schema);
  return problems;
}
