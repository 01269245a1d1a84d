/**
 * What the platform decides about policies and their exceptions from what it holds, checked at plan
 * against it (engine/catalogue/catalogue-checks.ts; docs/api/sec.md, "Policies", "Policy exceptions"):
 *
 * - the alert profile a policy names exists with the template named (its own or
 *   one it inherits) or, named alone, has a template to alert with;
 * - the policy of an exception exists (an id that is only a prefix of one names none) and takes
 *   exceptions, and each constraint is one its exception configuration defines, with values of its data
 *   type: plain values for `String` and `Number` (numeric ids, `*` allowed), key/value pairs for
 *   `KVTagPair`, one value unless it takes several;
 * - the managed policies' ids are policies the platform holds.
 */
import { attrStep, type CatalogueContext, indexStep, isApiError } from '@keel/provider-framework';
import type { AlertProfile } from '../../../clients/sec/alert-profiles.js';
import type { ExceptionConstraintField, Policy } from '../../../clients/sec/policies.js';
import type { SecClient } from '../../../clients/sec/index.js';
import { lookUp, named } from '../../shared/catalogue.js';

const NUMERIC_ID = /^[0-9*]+$/;

interface ExceptionConfig {
  readonly policy_id?: string | undefined;
  readonly constraint?:
    | readonly {
        readonly field_key?: string | undefined;
        readonly field_values?: readonly string[] | null | undefined;
        readonly field_values_map?: readonly unknown[] | undefined;
        readonly field_value_map?: readonly unknown[] | undefined;
      }[]
    | undefined;
}

export async function checkExceptionAgainstPolicy(
  config: ExceptionConfig,
  ctx: CatalogueContext<SecClient>,
): Promise<void> {
  const policyId = config.policy_id;
  if (policyId === undefined) return;
  const policy = await policyNamed(policyId, ctx);
  if (!policy) return;
  const fields = Object.values(policy.exceptionConfiguration).flat();
  if (fields.length === 0) {
    ctx.diags.error(
      'The policy takes no exceptions',
      `Policy ${policyId} defines no exception constraints, so nothing can be exempted from it.`,
      [attrStep('policy_id')],
    );
    return;
  }
  const byKey = new Map(fields.map((f) => [f.fieldKey, f]));
  for (const constraint of config.constraint ?? []) {
    const key = constraint.field_key;
    if (key === undefined) continue;
    const field = byKey.get(key);
    // A set's element has no index: the error is the block's, naming the key.
    const at = [attrStep('constraint')];
    if (!field) {
      ctx.diags.error(
        'Unknown constraint',
        `Policy ${policyId} has no exception constraint "${key}"; its constraints: ${named([...byKey.keys()])}.`,
        at,
      );
      continue;
    }
    const problem = valueProblem(field, constraint);
    if (problem) ctx.diags.error('Invalid constraint values', `The constraint "${key}" ${problem}.`, at);
  }
}

/**
 * The managed policies' ids are built-in policies the platform holds (sec_managed_policies): an id that
 * is only a prefix of one names none.
 */
export async function checkManagedPolicyIds(
  config: { readonly policy?: readonly { readonly id?: string | undefined }[] | undefined },
  ctx: CatalogueContext<SecClient>,
): Promise<void> {
  const wanted = (config.policy ?? []).map((p) => p.id).filter((id): id is string => id !== undefined);
  if (wanted.length === 0) return;
  const read = (signal: AbortSignal) => ctx.client.policies.list({ signal });
  let all = await ctx.listing('policies', read);
  const missing = () => wanted.filter((id) => !all.some((p) => p.policyId === id));
  if (missing().length > 0) all = await ctx.listing('policies', read, { fresh: true });
  for (const id of missing()) {
    const longer = all.map((p) => p.policyId).filter((other) => other.startsWith(id));
    ctx.missing('Unknown policy', `No policy has the id "${id}".${wholeIdHint(longer)}`, [attrStep('policy')]);
  }
}

const wholeIdHint = (longer: readonly string[]) =>
  longer.length > 0 ? ` Ids that begin with it: ${named(longer)}; the id must be given whole.` : '';

/** The policy with this id, or undefined after naming the problem (none, or ids it begins). */
async function policyNamed(policyId: string, ctx: CatalogueContext<SecClient>): Promise<Policy | undefined> {
  try {
    return await ctx.listing(`policy ${policyId}`, (signal) => ctx.client.policies.get(policyId, { signal }));
  } catch (err) {
    if (!isApiError(err) || err.code !== 'not_found') throw err;
  }
  const all = await ctx.listing('policies', (signal) => ctx.client.policies.list({ signal }));
  const longer = all.map((p) => p.policyId).filter((id) => id.startsWith(policyId) && id !== policyId);
  ctx.missing('Unknown policy', `No policy has the id "${policyId}".${wholeIdHint(longer)}`, [attrStep('policy_id')]);
  return undefined;
}

/** What is wrong with a constraint's values for its data type, or undefined. */
function valueProblem(
  field: ExceptionConstraintField,
  c: NonNullable<ExceptionConfig['constraint']>[number],
): string | undefined {
  if (c.field_values === undefined || c.field_values_map === undefined || c.field_value_map === undefined)
    return undefined;
  const plain = c.field_values ?? [];
  const pairs = c.field_values_map.length + c.field_value_map.length;
  if (field.dataType === 'KVTagPair') {
    if (plain.length > 0)
      return 'holds key/value pairs: give them as `field_values_map { key = "..." value = ["..."] }`, not field_values';
    return !field.multiValue && pairs > 1 ? `takes one key/value pair, not ${pairs}` : undefined;
  }
  if (pairs > 0) return `holds plain values (${field.dataType}): give them in field_values, not as key/value pairs`;
  if (!field.multiValue && plain.length > 1) return `takes a single value, not ${plain.length}`;
  const notNumeric = field.dataType === 'Number' ? plain.find((v) => !NUMERIC_ID.test(v.trim())) : undefined;
  return notNumeric === undefined
    ? undefined
    : `holds numeric ids (digits, with "*" as a wildcard); "${notNumeric}" is not one`;
}

interface PolicyConfig {
  readonly alerting?: readonly { readonly profile?: string | undefined }[] | undefined;
}

export async function checkPolicyReferences(config: PolicyConfig, ctx: CatalogueContext<SecClient>): Promise<void> {
  const reference = config.alerting?.[0]?.profile;
  if (reference === undefined) return;
  const at = [attrStep('alerting'), indexStep(0), attrStep('profile')];
  const dot = reference.indexOf('.');
  const [profileId, template] = dot < 0 ? [reference, undefined] : [reference.slice(0, dot), reference.slice(dot + 1)];
  // A profile this run makes (its name given, so known at plan) is checked by the apply.
  if (ctx.planned('an alert profile', profileId)) return;
  const profiles = await ctx.listing('alert profiles', (signal) => ctx.client.alertProfiles.list({ signal }));
  let profile = profiles.find((p) => p.alertProfileId === profileId);
  if (!profile) {
    const fresh = await ctx.listing('alert profiles', (signal) => ctx.client.alertProfiles.list({ signal }), {
      fresh: true,
    });
    profile = fresh.find((p) => p.alertProfileId === profileId);
    if (!profile) {
      ctx.missing(
        'Unknown alert profile',
        `No alert profile is named "${profileId}". The platform has ${named(fresh.map((p) => p.alertProfileId))}.`,
        at,
      );
      return;
    }
  }
  const templates = templatesOf(profile, profiles);
  if (template === undefined && templates.length === 0) {
    ctx.diags.error(
      'Alert profile without templates',
      `The alert profile ${profileId} has no template to alert with; name one that has templates, as ` +
        '`<profile>.<template>`.',
      at,
    );
  } else if (template !== undefined && !templates.includes(template)) {
    ctx.diags.error(
      'Unknown alert template',
      `The alert profile ${profileId} has no template "${template}"; its templates: ${named(templates)}.`,
      at,
    );
  }
}

/** A profile's templates, its own and those of the profiles it extends. */
function templatesOf(profile: AlertProfile, all: readonly AlertProfile[]): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let p: AlertProfile | undefined = profile; p && !seen.has(p.alertProfileId); ) {
    seen.add(p.alertProfileId);
    names.push(...p.alerts.map((a) => a.name));
    const parent: string = p.extends;
    p = parent ? all.find((q) => q.alertProfileId === parent) : undefined;
  }
  return names;
}

/** `{{FIELD}}` placeholders in a template's texts, as the platform reads them (docs/api/sec.md, "Alert profiles"). */
const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

interface AlertProfileConfig {
  readonly extends?: string | undefined;
  readonly alert?:
    | readonly { readonly subject?: string | undefined; readonly description?: string | undefined }[]
    | undefined;
}

/**
 * An alert profile's templates use only the fields the profile it extends maps (names match exactly:
 * `{{resource_id}}` is not `{{RESOURCE_ID}}`); that it exists is the reference check's.
 */
export async function checkAlertProfileTemplates(
  config: AlertProfileConfig,
  ctx: CatalogueContext<SecClient>,
): Promise<void> {
  const parentId = config.extends;
  if (parentId === undefined) return;
  // One this run makes has no fields to read yet; one that does not exist is named by the reference check.
  if (ctx.planned('an alert profile', parentId)) return;
  const read = (signal: AbortSignal) => ctx.client.alertProfiles.list({ signal });
  const { found: parent } = await lookUp(ctx, 'alert profiles', read, (p) => p.alertProfileId === parentId);
  if (!parent) return;
  const known = new Set(parent.fields);
  for (const template of config.alert ?? []) {
    for (const key of ['subject', 'description'] as const) {
      for (const match of (template[key] ?? '').matchAll(PLACEHOLDER)) {
        const name = match[1]!;
        if (known.has(name)) continue;
        const like = parent.fields.filter((f) => f.toLowerCase() === name.toLowerCase());
        ctx.diags.error(
          'Unknown profile field',
          `{{${name}}} in an alert's ${key} is not a field of ${parentId}` +
            `${like.length > 0 ? ` (field names are exact: ${like.map((f) => `{{${f}}}`).join(', ')})` : ''}; ` +
            `its fields: ${named(parent.fields)}.`,
          // A set's element has no index: the error is the block's.
          [attrStep('alert')],
        );
      }
    }
  }
}
