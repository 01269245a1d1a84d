/**
 * Invariants over every registered schema of both providers (provider configuration, resources, data
 * sources), walked down to nested blocks and the fields of object-typed attributes:
 * - every resource has a string `id` (computed; optional only where it is platform-assigned, which a configuration may only repeat);
 * - every attribute whose name says it holds a credential (or a webhook URL, which carries one) is
 *   sensitive, unless an exception below says why not;
 * - every attribute and block has a description;
 * - every resource and data source has its example (`main.tf`) and acceptance case
 *   (`test/acceptance/cases/<provider>/<example directory>.json`),
 *   every ephemeral resource and action an example that uses it;
 * - an action's arguments are required or optional, never computed (an action keeps no state), and
 *   it says what an interrupted run leaves behind;
 * - optional attributes the platform fills when they are not configured are computed;
 * - every resource type can find the object its create makes (or repeating its create is harmless);
 * - every number argument declares its range;
 * - every argument of a resource has valid values made from its declaration (its validators'
 *   samples, or plain values of its type), unless it names another object (`refersTo`), and every
 *   validator's samples pass its own check: the property tests (test/props) build configurations
 *   from them.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProviderDef } from '../../src/providers/describe.js';
import { action, provider, resource, type ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import {
  attr,
  block,
  resourceSchema,
  t,
  validators,
  withoutDeprecation,
  type AttrOptions,
  type FieldDef,
  type Fields,
} from '../../packages/framework/src/schema/define.js';
import type { SchemaAttribute, SchemaBlock } from '../../packages/framework/src/schema/block.js';
import type { CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { findExample } from '../../src/docs/examples.js';
import { samplesOf } from '../../src/schema/samples.js';
import { name as nameForm } from '../../src/schema/forms.js';
import { withoutSecrets } from '../../packages/framework/src/engine/plan/secret-rules.js';
import { globToRegExp } from '../support/glob.js';

const REPO_ROOT = process.cwd();
const PROVIDERS = ['sec', 'vdb'] as const;
type ProviderName = (typeof PROVIDERS)[number];

// ---------------------------------------------------------------------------------------------------
// Walking the schemas

type Owner = {
  kind: 'provider' | 'resource' | 'data source' | 'ephemeral resource' | 'action';
  provider: ProviderName;
  typeName: string;
};

/** One attribute, block, or field of an object-typed attribute, with its place. */
interface Node {
  owner: Owner;
  /** `<type>.<path>`; fields inside an attribute's object type are written `attr[].field`. */
  where: string;
  name: string;
  kind: 'attribute' | 'block' | 'object field';
  type?: CtyType;
  attribute?: SchemaAttribute;
  options?: AttrOptions<unknown>;
  description?: string;
  /** Its deprecation message, for a deprecated attribute or block. */
  deprecated?: string;
  /** Names of the fields next to this one (same block or object type). */
  siblings: string[];
  /** For an object field: the top-level attribute that holds it. */
  holder?: Node;
  /** For a block: how it nests, and the description its schema block carries to clients. */
  nesting?: string;
  schemaDescription?: string;
}

function walkBlock(owner: Owner, fields: Fields, block: SchemaBlock, prefix: string, out: Node[]): void {
  const siblings = Object.keys(fields);
  for (const [name, def] of Object.entries(fields) as Array<[string, FieldDef]>) {
    const where = `${prefix}.${name}`;
    if (def.kind === 'block') {
      const { description, deprecated } = def.options;
      const nested = block.blockTypes[name]!;
      out.push({
        owner,
        where,
        name,
        kind: 'block',
        description,
        siblings,
        nesting: nested.nesting,
        schemaDescription: nested.block.description,
        ...(deprecated ? { deprecated } : {}),
      });
      walkBlock(owner, def.fields, block.blockTypes[name]!.block, where, out);
      continue;
    }
    const attribute = block.attributes[name]!;
    const node: Node = {
      owner,
      where,
      name,
      kind: 'attribute',
      type: attribute.type,
      attribute,
      options: def.options as AttrOptions<unknown>,
      description: attribute.description,
      siblings,
      ...(def.options.deprecated ? { deprecated: def.options.deprecated } : {}),
    };
    out.push(node);
    walkObjectFields(owner, attribute.type, where, node, out);
  }
}

function walkObjectFields(owner: Owner, type: CtyType, where: string, holder: Node, out: Node[]): void {
  if (type.kind === 'list' || type.kind === 'set' || type.kind === 'map')
    return walkObjectFields(owner, type.element, `${where}[]`, holder, out);
  if (type.kind !== 'object') return;
  const siblings = Object.keys(type.attributes);
  for (const [name, t] of Object.entries(type.attributes)) {
    out.push({ owner, where: `${where}.${name}`, name, kind: 'object field', type: t, siblings, holder });
    walkObjectFields(owner, t, `${where}.${name}`, holder, out);
  }
}

interface Loaded {
  name: ProviderName;
  def: ProviderDef<any, any>;
  nodes: Node[];
}

async function load(name: ProviderName): Promise<Loaded> {
  const def = await loadProviderDef(name);
  const nodes: Node[] = [];
  walkBlock(
    { kind: 'provider', provider: name, typeName: name },
    def.schema.fields,
    def.schema.block,
    `provider "${name}"`,
    nodes,
  );
  for (const r of def.resources)
    walkBlock(
      { kind: 'resource', provider: name, typeName: r.typeName },
      r.schema.fields,
      r.schema.block,
      r.typeName,
      nodes,
    );
  for (const d of def.dataSources)
    walkBlock(
      { kind: 'data source', provider: name, typeName: d.typeName },
      d.schema.fields,
      d.schema.block,
      `data.${d.typeName}`,
      nodes,
    );
  for (const e of def.ephemeralResources ?? [])
    walkBlock(
      { kind: 'ephemeral resource', provider: name, typeName: e.typeName },
      e.schema.fields,
      e.schema.block,
      `ephemeral.${e.typeName}`,
      nodes,
    );
  for (const a of def.actions ?? [])
    walkBlock(
      { kind: 'action', provider: name, typeName: a.typeName },
      a.schema.fields,
      a.schema.block,
      `action.${a.typeName}`,
      nodes,
    );
  return { name, def, nodes };
}

// ---------------------------------------------------------------------------------------------------
// Credentials

/**
 * A name that says it holds a credential: its last word is password, secret, token or key
 * (`api_key`, `insert_key`, `integration_key`, `client_secret`, `secret_access_key`, `ingest_token`,
 * `server_token`, `key`), or it names a private key (`private_key`, `private_key_id`), or a webhook
 * URL (`webhook_url`: whoever has it can post to the channel; docs/decisions.md, "Credentials are sensitive"). Identifiers of credentials
 * (`access_key_id`, `token_uri`, `secret_name`) and other URLs (`queue_url`) end in another word.
 */
function looksLikeCredential(name: string): boolean {
  const last = name.split('_').at(-1)!;
  return (
    ['password', 'passwd', 'secret', 'token', 'key'].includes(last) ||
    name.includes('private_key') ||
    /(^|_)webhook_url$/.test(name)
  );
}

/** A string, or a collection of strings: the shapes a credential value has. */
function holdsText(t: CtyType | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'string') return true;
  return (t.kind === 'list' || t.kind === 'set' || t.kind === 'map') && holdsText(t.element);
}

interface Exception {
  /** `<type>.<path>` glob (data sources `data.<type>.<path>`). */
  where: string;
  reason: string;
}

/** Credential-named attributes that are deliberately not sensitive. */
const NOT_SECRET: Exception[] = [
  // Seed-mandated. docs/decisions.md, "Credentials are sensitive", flags credentials the seed leaves unflagged (vdb key/token, the sec webhook
  // URLs, the observ insert key, the cloud_c agentless/DSPM client secret); a key's *id* is not one.
  {
    where: 'sec_integration_cloud_b_cfg.credentials.private_key_id',
    reason:
      "sec seed §2.17: IntegrationCloudBCfgCredentials flags privateKey secret but not privateKeyId (the key's id, not the key).",
  },
  {
    where: 'sec_integration_cloud_b_at.credentials.private_key_id',
    reason: 'sec seed §2.17: IntegrationCloudBAtCredentials flags privateKey secret but not privateKeyId.',
  },
  {
    where: 'sec_integration_cloud_b_agentless_scanning.credentials.private_key_id',
    reason:
      'sec seed §2.17: IntegrationCloudBAgentlessScanningCredentials flags privateKey secret but not privateKeyId.',
  },
  {
    where: 'sec_integration_registry_c.credentials.private_key_id',
    reason: 'sec seed §2.17: IntegrationRegistryCCredentials flags privateKey secret but not privateKeyId.',
  },
  // Not credentials at all.
  {
    where: 'sec_alert_channel_tracker_*.project_key',
    reason: 'The key of the tracker project (an identifier such as `SEC`), not a credential.',
  },
  {
    where: 'sec_policy_exception.constraint.field_key',
    reason: 'The name of the constrained field (e.g. `accountIds`), not a credential.',
  },
  {
    where: 'vdb_accounts_cluster.configuration.database_configuration.*.secret_key',
    reason:
      'The name of the key inside an orchestrator secret that holds the value (vdb seed §2.2: "The key objects name a secret and the key within it"), not the value.',
  },
  {
    where: 'data.vdb_accounts_cluster*.configuration[].database_configuration[].*.secret_key',
    reason: 'As on the cluster resource: the name of a key inside an orchestrator secret, not the value.',
  },
  {
    where: 'data.vdb_accounts_clusters.clusters[].configuration[].database_configuration[].*.secret_key',
    reason: 'As on the cluster resource: the name of a key inside an orchestrator secret, not the value.',
  },
  {
    where: 'vdb_accounts_manual_backup.cluster_info[].configuration[].database_configuration[].*.secret_key',
    reason: 'As on the cluster resource: the name of a key inside an orchestrator secret, not the value.',
  },
  {
    where: '*topology_spread_constraints*.topology_key',
    reason:
      'The node label a topology spread constraint groups by (e.g. `topology.kubernetes.io/zone`), not a credential.',
  },
  // Secrets the data sources never return.
  {
    where: 'data.vdb_accounts_auth_keys.keys[].token',
    reason:
      'Always empty: the platform returns a key\'s token only when it is created (docs/api/vdb.md, "Secrets shown once"). Making `keys` sensitive would hide every other field in plans and make the Pulumi output secret, unlike the seed\'s getAccountsAuthKeysKey.',
  },
  {
    where: 'data.vdb_accounts_database_api_keys_v2.keys[].key',
    reason:
      'Always empty: the platform returns a key only when it is created (docs/api/vdb.md, "Secrets shown once"). Making `keys` sensitive would hide every other field in plans, unlike the seed\'s getAccountsDatabaseApiKeysV2Key.',
  },
];

/** A `key` next to a `value`/`values` is the key of a label, tag or map entry: a name, not a credential. */
function isEntryKey(n: Node): boolean {
  return n.name === 'key' && (n.siblings.includes('value') || n.siblings.includes('values'));
}

// ---------------------------------------------------------------------------------------------------
// Optional attributes the platform fills

interface FilledByPlatform {
  /** `<type>.<path>` glob. */
  where: string;
  reason: string;
}

/**
 * Optional attributes the references say the platform fills when they are not configured (O+C in
 * docs/api/vdb.md, "Optional values the platform fills" and docs/api/sec.md, "Resource groups";
 * "always present in the output" in the seeds). Nested blocks the references mark O+C
 * (`global_access_rule`, `service.api_key`, `inference`) cannot be computed in protocol 6; their
 * attributes are listed instead where they are O+C.
 */
const FILLED_BY_PLATFORM: FilledByPlatform[] = [
  {
    where: 'vdb_*.account_id',
    reason:
      'docs/api/vdb.md, "Account ids on resources": after any read `account_id` holds the account id the API returns (falls back to the provider\'s).',
  },
  {
    where: 'data.vdb_*.account_id',
    reason: 'docs/api/vdb.md, "Account ids on resources": the data sources report the account they read (O+C).',
  },
  {
    where: 'vdb_accounts_cluster.configuration.version',
    reason:
      'docs/api/vdb.md, "Optional values the platform fills" and the vdb seed ("always present in output"): the platform picks the engine version.',
  },
  {
    where: 'vdb_accounts_cluster.configuration.database_configuration.service.jwt_rbac',
    reason: 'docs/api/vdb.md, "Optional values the platform fills" and the vdb seed: read from the cluster state.',
  },
  {
    where: 'vdb_accounts_cluster.configuration.database_configuration.service.enable_tls',
    reason: 'docs/api/vdb.md, "Optional values the platform fills" and the vdb seed: always present in output.',
  },
  {
    where: 'vdb_accounts_cluster.configuration.database_configuration.inference.enabled',
    reason:
      'docs/api/vdb.md, "Optional values the platform fills" and the vdb seed: inference is always present in output.',
  },
  {
    where: 'vdb_accounts_database_api_key_v2.expires_at',
    reason: 'docs/api/vdb.md, "Optional values the platform fills": O+C (the platform reports the expiry it applied).',
  },
  {
    where: 'vdb_accounts_hybrid_cloud_environment.bootstrap_commands_version',
    reason: 'docs/api/vdb.md, "Optional values the platform fills": O+C rotation knob the platform reports.',
  },
  {
    where: 'sec_resource_group.enabled',
    reason: 'docs/api/sec.md, "Resource groups": upstream made `enabled` optional and computed; it defaults to true.',
  },
];

/** Names that say the platform sets the value: timestamps, authors, the engine version. */
function namedAsPlatformValue(name: string): boolean {
  return (
    /(_at|_time|_timestamp|_by|_by_email)$/.test(name) || /^(created|updated|last_updated|last_modified)_/.test(name)
  );
}

// ---------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------
// The checks (each returns one line per problem)

function idProblems(def: ProviderDef<any, any>): string[] {
  const problems: string[] = [];
  for (const r of def.resources) {
    const id = r.schema.block.attributes.id;
    const field = r.schema.fields.id;
    const options = field?.kind === 'attr' ? (field.options as AttrOptions<unknown>) : undefined;
    if (!id) problems.push(`${r.typeName}: no \`id\` attribute`);
    else if (id.type.kind !== 'string') problems.push(`${r.typeName}: \`id\` is ${id.type.kind}, not string`);
    else if (!id.computed) problems.push(`${r.typeName}: \`id\` is not computed`);
    else if (id.required || (id.optional && options?.platformAssigned !== true)) {
      problems.push(
        `${r.typeName}: \`id\` may be configured (docs/decisions.md, "Every resource has a string id": the platform assigns it; declare it platformAssigned)`,
      );
    }
  }
  return problems;
}

const isSensitive = (n: Node) => (n.kind === 'attribute' ? n.attribute!.sensitive : n.holder!.attribute!.sensitive);

function credentialProblems(nodes: Node[], exceptions: Exception[] = NOT_SECRET): string[] {
  const problems: string[] = [];
  for (const n of nodes) {
    if (n.kind === 'block' || !looksLikeCredential(n.name) || !holdsText(n.type) || isEntryKey(n) || isSensitive(n))
      continue;
    if (exceptions.some((e) => globToRegExp(e.where).test(n.where))) continue;
    problems.push(
      `${n.where}${n.kind === 'object field' ? ` (inside \`${n.holder!.where}\`, which is not sensitive)` : ''}`,
    );
  }
  return problems;
}

function descriptionProblems(nodes: Node[], def: ProviderDef<any, any>): string[] {
  const problems = nodes
    .filter((n) => n.kind !== 'object field' && (n.description ?? '').trim() === '')
    .map((n) => n.where);
  // The schema builder adds the deprecation message to the description (docs/decisions.md,
  // "Deprecations on the wire"): a declared description that says it too says it twice.
  for (const n of nodes)
    if (n.deprecated !== undefined && /\bdeprecated\b/i.test(withoutDeprecation(n.description ?? '', n.deprecated)))
      problems.push(`${n.where}: the description says it is deprecated, which the deprecation message says`);
  if (def.schema.block.description.trim() === '') problems.push(`provider "${def.name}": no description`);
  for (const r of def.resources)
    if (r.schema.block.description.trim() === '') problems.push(`${r.typeName}: no description`);
  for (const d of def.dataSources)
    if (d.schema.block.description.trim() === '') problems.push(`data.${d.typeName}: no description`);
  for (const e of def.ephemeralResources ?? [])
    if (e.schema.block.description.trim() === '') problems.push(`ephemeral.${e.typeName}: no description`);
  for (const a of def.actions ?? []) {
    if (a.schema.block.description.trim() === '') problems.push(`action.${a.typeName}: no description`);
    if (a.interruption.trim() === '')
      problems.push(`action.${a.typeName}: does not say what an interrupted run leaves`);
  }
  return problems;
}

/** Whether a description tells a client that shows every collection as a list that order does not matter. */
const saysOrderDoesNotMatter = (description: string) => /\border\b[^.]*\bdoes not matter\b/i.test(description);

/**
 * Collections whose order means nothing (sets, `unordered` lists) whose description, as clients get it,
 * does not say so, and ordered lists whose description says it does not matter. Pulumi shows a set as
 * an array (and reads may return it sorted): the description is all its users have.
 */
function orderProblems(nodes: readonly Node[]): string[] {
  const problems: string[] = [];
  for (const n of nodes) {
    let unordered: boolean;
    let description: string;
    if (n.kind === 'block') {
      if (n.nesting !== 'set' && n.nesting !== 'list') continue;
      unordered = n.nesting === 'set';
      description = n.schemaDescription ?? '';
    } else if (n.kind === 'attribute') {
      const kind = n.attribute!.type.kind;
      if (kind !== 'set' && kind !== 'list') continue;
      unordered = kind === 'set' || n.options?.unordered === true;
      description = n.attribute!.description;
    } else continue;
    if (unordered !== saysOrderDoesNotMatter(description))
      problems.push(
        `${n.where}: ${unordered ? 'unordered, and does not say so' : 'ordered, but says order does not matter'}`,
      );
  }
  return problems;
}

/** Computed attributes in an action's `config` block: an action keeps no state, so nothing can fill them. */
function computedActionArguments(nodes: readonly Node[]): string[] {
  return nodes
    .filter((n) => n.owner.kind === 'action' && n.kind === 'attribute' && n.attribute!.computed)
    .map((n) => `${n.where}: computed (an action keeps no state; give its default in the description and the code)`);
}

/** The acceptance case of an example directory (test/acceptance/CASES.md). */
const caseFile = (provider: string, exampleDir: string) =>
  `test/acceptance/cases/${provider}/${exampleDir.slice(exampleDir.lastIndexOf('/') + 1)}.json`;

function exampleProblems(
  provider: string,
  def: ProviderDef<any, any>,
  readFile: (rel: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  const check = (kind: 'resource' | 'data-source', typeName: string) => {
    const ex = findExample(provider, kind, typeName, readFile);
    if (!ex) {
      problems.push(
        kind === 'resource'
          ? `resource ${typeName}: no examples/${provider}/${typeName}/main.tf`
          : `data source ${typeName}: no examples/${provider}/data_${typeName}/main.tf (or examples/${provider}/${typeName}/ with "dataSource": true when no resource has the name)`,
      );
    } else if (readFile(caseFile(provider, ex.dir)) === undefined)
      problems.push(`${kind} ${typeName}: no ${caseFile(provider, ex.dir)}`);
    else if (!ex.mainTf.includes(`"${typeName}"`))
      problems.push(`${kind} ${typeName}: ${ex.dir}/main.tf does not use it`);
  };
  for (const r of def.resources) check('resource', r.typeName);
  for (const d of def.dataSources) check('data-source', d.typeName);
  // Ephemeral resources: an example that uses it (the write-only and ephemeral acceptance tests run them).
  for (const e of def.ephemeralResources ?? []) {
    const ex = findExample(provider, 'ephemeral', e.typeName, readFile);
    if (!ex) problems.push(`ephemeral resource ${e.typeName}: no examples/${provider}/ephemeral/${e.typeName}/main.tf`);
    else if (!ex.mainTf.includes(`ephemeral "${e.typeName}"`))
      problems.push(`ephemeral resource ${e.typeName}: ${ex.dir}/main.tf does not use it`);
  }
  // Actions: an example that declares it (Terraform 1.14 only; test/protocol replays its requests).
  for (const a of def.actions ?? []) {
    const ex = findExample(provider, 'action', a.typeName, readFile);
    if (!ex) problems.push(`action ${a.typeName}: no examples/${provider}/actions/${a.typeName}/main.tf`);
    else if (!ex.mainTf.includes(`action "${a.typeName}"`))
      problems.push(`action ${a.typeName}: ${ex.dir}/main.tf does not use it`);
  }
  return problems;
}

function filledByPlatformProblems(
  provider: string,
  nodes: Node[],
  listed: FilledByPlatform[] = FILLED_BY_PLATFORM,
): string[] {
  const problems: string[] = [];
  for (const n of nodes) {
    if (n.kind !== 'attribute' || !n.attribute!.optional || n.attribute!.computed) continue;
    const entry = listed.find((f) => globToRegExp(f.where).test(n.where));
    if (entry) problems.push(`${n.where}: optional but not computed (${entry.reason})`);
    else if (namedAsPlatformValue(n.name))
      problems.push(`${n.where}: optional but not computed, although its name says the platform sets it`);
  }
  // Every listed attribute exists (a rename would otherwise hide it).
  for (const f of listed.filter((x) => x.where.replace(/^data\./, '').startsWith(`${provider}_`))) {
    if (!nodes.some((n) => n.kind === 'attribute' && globToRegExp(f.where).test(n.where)))
      problems.push(`${f.where}: no such attribute (renamed or removed?)`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------

const loaded = new Map<ProviderName, Loaded>();

/** Number arguments (or lists of numbers) without a validator that declares a finite range. */
function unboundedNumbers(nodes: readonly Node[]): string[] {
  return nodes
    .filter((n) => {
      const o = n.options;
      const argument = o !== undefined && (o.required === true || o.optional === true || o.default !== undefined);
      const numeric =
        n.type?.kind === 'number' ||
        ((n.type?.kind === 'list' || n.type?.kind === 'set') && n.type.element.kind === 'number');
      return (
        n.kind === 'attribute' &&
        argument &&
        numeric &&
        !(o!.validate ?? []).some((v) => v.range !== undefined && Number.isFinite(v.range[1]))
      );
    })
    .map((n) => n.where);
}

/** Arguments of resources that no valid value can be made for, though they name no other object. */
function argumentsWithoutSamples(nodes: readonly Node[]): string[] {
  return nodes
    .filter((n) => {
      const o = n.options;
      if (
        n.kind !== 'attribute' ||
        n.owner.kind !== 'resource' ||
        o === undefined ||
        o.platformAssigned === true ||
        o.refersTo !== undefined
      )
        return false;
      const argument = o.required === true || o.optional === true || o.default !== undefined;
      return argument && samplesOf({ kind: 'attr', type: { cty: n.type! }, options: o }).length === 0;
    })
    .map((n) => n.where);
}

/** Samples a validator names that its own check refuses. */
function refusedSamples(nodes: readonly Node[]): string[] {
  return nodes.flatMap((n) =>
    (n.options?.validate ?? []).flatMap((v) =>
      (v.samples ?? [])
        .filter((s) => v.check(s) !== undefined)
        .map((s) => `${n.where}: ${v.description}: ${JSON.stringify(s)}`),
    ),
  );
}

/** Resource types that neither find what a lost create made nor say why repeating it is harmless. */
function unrecoverableCreates(def: ProviderDef<any, any>): string[] {
  return def.resources
    .filter((r) => (r.findCreated === undefined) === (r.repeatableCreate === undefined))
    .map((r) => r.typeName);
}

/**
 * Creating types whose declaration does not give the engine what it needs to judge a lost create
 * (packages/framework/src/engine/creates/create-recovery.ts): a key and whether the platform keeps it unique, a
 * listing, a key
 * test and import ids, and `setAfterCreate` naming only attributes the type has. The evidence rule
 * is the engine's; this is what each type must declare for it.
 */
function undeclaredEvidence(def: ProviderDef<any, any>): string[] {
  return def.resources.flatMap((r) => {
    const lookup = r.findCreated;
    if (!lookup) return [];
    const problems: string[] = [];
    if (typeof lookup.key !== 'string' || !/^its /.test(lookup.key))
      problems.push('`key` must say what identifies the object ("its …")');
    if (typeof lookup.uniqueKey !== 'boolean' && typeof lookup.uniqueKey !== 'function')
      problems.push('`uniqueKey` must say whether the platform keeps the key unique');
    for (const f of ['describe', 'list', 'holdsKey', 'importId'] as const)
      if (typeof lookup[f] !== 'function') problems.push(`\`${f}\` is missing`);
    for (const a of lookup.setAfterCreate ?? [])
      if (!(a in r.schema.fields)) problems.push(`setAfterCreate names \`${a}\`, which the type does not have`);
    if (r.settle === undefined && (lookup.setAfterCreate ?? []).length > 0)
      problems.push('setAfterCreate without a `settle` step that sets it');
    return problems.map((p) => `${r.typeName}: ${p}`);
  });
}

/**
 * Names and titles people read in the platforms' consoles: every configurable top-level `name` or
 * `title` of a resource refuses what the name form refuses (control characters, terminal escapes,
 * line breaks, bidirectional controls, invisible text), whatever validators it uses to do so.
 */
function namesThatTakeAnything(def: ProviderDef<any, any>): string[] {
  const refused = nameForm(1_000_000).counterexamples.filter((c) => c.length < 100);
  return def.resources.flatMap((r) =>
    Object.entries(r.schema.fields as Fields)
      .filter(
        ([n, d]) =>
          (n === 'name' || n === 'title') &&
          d.kind === 'attr' &&
          d.type.cty.kind === 'string' &&
          (d.options.required || d.options.optional),
      )
      .flatMap(([n, d]) => {
        const validate = d.kind === 'attr' ? (d.options.validate ?? []) : [];
        return refused
          .filter((c) => validate.every((v) => v.check(c) === undefined))
          .map((c) => `${r.typeName}.${n} takes ${JSON.stringify(c)}`);
      }),
  );
}

/**
 * A refused secret is never shown: every validator of a sensitive argument quotes the value it
 * refuses as JSON (or not at all), which is what the engine hides (engine/plan/secret-rules.ts
 * withoutSecrets), so no text of the value survives in the message; its counterexamples and a made-up
 * secret are tried.
 */
function secretsShownByValidators(nodes: Node[]): string[] {
  const secret = 'Zq9-made-up-secret-XK2';
  return nodes
    .filter((n) => n.kind === 'attribute' && n.attribute!.sensitive && (n.options?.validate ?? []).length > 0)
    .flatMap((n) =>
      n.options!.validate!.flatMap((v) => {
        const refused = (v as { counterexamples?: readonly unknown[] }).counterexamples ?? [];
        const tried = [...refused, n.type!.kind === 'string' ? secret : [secret]];
        return tried.flatMap((value) => {
          const problem = v.check(value);
          if (problem === undefined) return [];
          const shown = withoutSecrets(problem, value);
          const long = (x: unknown): x is string => typeof x === 'string' && x.trim().length >= 4;
          const texts = (Array.isArray(value) ? value : [value]).filter(long);
          const leaked = texts.filter((x) => shown.includes(x));
          return leaked.map((x) => `${n.where} shows ${JSON.stringify(x.slice(0, 40))}: ${shown}`);
        });
      }),
    );
}

const fail = (title: string, lines: string[]) => {
  if (lines.length > 0) expect.fail(`${title}:\n${lines.join('\n')}`);
};

const readRepoFile = (rel: string) =>
  existsSync(join(REPO_ROOT, rel)) ? readFileSync(join(REPO_ROOT, rel), 'utf8') : undefined;

describe('schema invariants', () => {
  before(async () => {
    for (const name of PROVIDERS) loaded.set(name, await load(name));
  });

  for (const name of PROVIDERS) {
    describe(name, () => {
      it('every resource has a string `id`, computed, and configurable only where validation rejects it', () => {
        const { def } = loaded.get(name)!;
        expect(def.resources.length).to.be.greaterThan(0);
        fail('resources without a proper id', idProblems(def));
      });

      it('every credential-named attribute is sensitive (or an exception says why not)', () => {
        fail('credential-named attributes that are not sensitive', credentialProblems(loaded.get(name)!.nodes));
      });

      it('every attribute and block has a description', () => {
        const { nodes, def } = loaded.get(name)!;
        fail('without a description', descriptionProblems(nodes, def));
      });

      it('every set and unordered list says in the schema that order does not matter, and no ordered list does', () => {
        fail('collections that misstate their order', orderProblems(loaded.get(name)!.nodes));
      });

      it('every action has arguments only, and says what an interrupted run leaves', () => {
        const { def, nodes } = loaded.get(name)!;
        expect(def.actions ?? [], 'actions').to.not.have.length(0);
        fail('computed action arguments', computedActionArguments(nodes));
      });

      it('every resource and data source has an example and an acceptance case', () => {
        fail('missing examples (test/acceptance/CASES.md)', exampleProblems(name, loaded.get(name)!.def, readRepoFile));
      });

      it('every number argument declares its range, so an absurd count is refused at plan time', () => {
        fail('number arguments without a declared range', unboundedNumbers(loaded.get(name)!.nodes));
      });

      it('every argument of a resource has valid values made from its declaration, or names another object', () => {
        fail(
          'arguments without a valid sample (give a validator `samples`, or declare `refersTo`)',
          argumentsWithoutSamples(loaded.get(name)!.nodes),
        );
        fail('samples their own validator refuses', refusedSamples(loaded.get(name)!.nodes));
      });

      it('every resource type can find again what its create makes, or says why repeating the create duplicates nothing', () => {
        fail(
          'resource types with neither findCreated nor repeatableCreate (or both)',
          unrecoverableCreates(loaded.get(name)!.def),
        );
      });

      it('every name and title refuses control characters, escapes, line breaks, bidirectional controls and invisible text', () => {
        fail('names that take what the platform refuses', namesThatTakeAnything(loaded.get(name)!.def));
      });

      it('every creating type declares the evidence the engine needs to adopt only what its create made', () => {
        fail('creating types whose lookup is incomplete', undeclaredEvidence(loaded.get(name)!.def));
      });

      it('no validator of a sensitive argument shows the value it refuses, but quoted, as the engine hides it', () => {
        fail('messages that show a secret', secretsShownByValidators(loaded.get(name)!.nodes));
      });

      it('optional attributes the platform fills are computed', () => {
        fail('optional attributes that must be computed', filledByPlatformProblems(name, loaded.get(name)!.nodes));
      });
    });
  }

  it('needs every credential exception (no stale entry)', () => {
    const all = [...loaded.values()].flatMap((l) => l.nodes);
    const unused = NOT_SECRET.filter((e) => {
      const re = globToRegExp(e.where);
      return !all.some((n) => re.test(n.where) && n.kind !== 'block' && looksLikeCredential(n.name) && !isSensitive(n));
    });
    fail(
      'exceptions that match no unflagged credential-named attribute',
      unused.map((e) => e.where),
    );
  });

  it('recognises credential names', () => {
    for (const n of [
      'api_key',
      'insert_key',
      'integration_key',
      'client_secret',
      'secret_access_key',
      'password',
      'api_token',
      'ingest_token',
      'private_key',
      'private_key_id',
      'key',
      'token',
      'webhook_url',
    ]) {
      expect(looksLikeCredential(n), n).to.equal(true);
    }
    for (const n of [
      'access_key_id',
      'token_uri',
      'secret_name',
      'keys',
      'key_name',
      'monkey',
      'tokens_issued',
      'client_id',
      'queue_url',
      'webhook_url_note',
    ])
      expect(looksLikeCredential(n), n).to.equal(false);
    expect(isEntryKey({ name: 'key', siblings: ['key', 'value'] } as Node)).to.equal(true);
    expect(isEntryKey({ name: 'key', siblings: ['key', 'prefix'] } as Node)).to.equal(false);
  });
});

describe('schema invariants: the checks catch violations', () => {
  // A small provider that breaks every rule once.
  const broken = provider<any, unknown>({
    name: 'demo',
    version: '0.0.1',
    schema: resourceSchema(
      { api_token: attr.string({ optional: true, description: 'Token.' }) },
      { description: 'Demo.' },
    ),
    configure: async () => ({}),
    resources: [
      resource<any, unknown>({
        typeName: 'demo_thing',
        schema: resourceSchema(
          {
            id: attr.string({ optional: true, computed: true, description: 'Id.' }),
            password: attr.string({ required: true, description: '' }),
            expires_at: attr.string({ optional: true, description: 'Expiry.' }),
            region: attr.string({ optional: true, description: 'Region.' }),
            area: attr.string({ optional: true, deprecated: 'Use `region`.', description: 'Area. Deprecated.' }),
            labels: block.set(
              {
                key: attr.string({ required: true, description: 'Key.' }),
                value: attr.string({ required: true, description: 'Value.' }),
              },
              { description: 'Labels.' },
            ),
            entries: attr.of(t.list(t.object({ name: t.string, token: t.string })))({
              computed: true,
              description: 'Entries. Their order does not matter.',
            }),
            replicas: attr.number({
              optional: true,
              validate: [validators.nonEmpty() as never],
              description: 'Replicas.',
            }),
            email: attr.string({
              optional: true,
              validate: [validators.matches(/@/, 'an e-mail address')],
              description: 'E-mail.',
            }),
            site: attr.string({
              optional: true,
              validate: [validators.matches(/^s/, 'a site', ['s1', 'a1'])],
              description: 'Site.',
            }),
            owner: attr.string({
              optional: true,
              refersTo: 'a user',
              validate: [validators.matches(/@/, 'an e-mail address')],
              description: 'Owner.',
            }),
          },
          { description: 'A thing.' },
        ),
        create: async () => ({}),
        read: async () => null,
        delete: async () => {},
      }),
      resource<any, unknown>({
        typeName: 'demo_other',
        schema: resourceSchema({ name: attr.string({ required: true, description: 'Name.' }) }, { description: '' }),
        create: async () => ({}),
        read: async () => null,
        delete: async () => {},
      }),
    ],
    dataSources: [],
    actions: [
      action<any, unknown>({
        typeName: 'demo_poke',
        schema: resourceSchema(
          {
            target: attr.string({ required: true, description: '' }),
            force: attr.bool({ optional: true, default: false, description: 'Force.' }),
          },
          { description: 'Pokes.' },
        ),
        interruption: '',
        invoke: async () => {},
      }),
    ],
  }) as ProviderDef<any, any>;
  const nodes: Node[] = [];
  walkBlock(
    { kind: 'provider', provider: 'sec', typeName: 'demo' },
    broken.schema.fields,
    broken.schema.block,
    'provider "demo"',
    nodes,
  );
  for (const r of broken.resources)
    walkBlock(
      { kind: 'resource', provider: 'sec', typeName: r.typeName },
      r.schema.fields,
      r.schema.block,
      r.typeName,
      nodes,
    );
  for (const a of broken.actions ?? [])
    walkBlock(
      { kind: 'action', provider: 'sec', typeName: a.typeName },
      a.schema.fields,
      a.schema.block,
      `action.${a.typeName}`,
      nodes,
    );

  it('finds number arguments without a range, and types that cannot recover a lost create', () => {
    expect(unboundedNumbers(nodes)).to.deep.equal(['demo_thing.replicas']);
    expect(unrecoverableCreates(broken)).to.deep.equal(['demo_thing', 'demo_other']);
  });

  it('finds arguments no valid value can be made for, and samples their validator refuses', () => {
    // `replicas`: a number without a range; `email`: a pattern that names no sample; `owner` names another object.
    expect(argumentsWithoutSamples(nodes)).to.deep.equal(['demo_thing.replicas', 'demo_thing.email']);
    expect(refusedSamples(nodes)).to.deep.equal(['demo_thing.site: a site: "a1"']);
  });

  it('finds a configurable or missing id', () => {
    expect(idProblems(broken)).to.deep.equal([
      'demo_thing: `id` may be configured (docs/decisions.md, "Every resource has a string id": the platform assigns it; declare it platformAssigned)',
      'demo_other: no `id` attribute',
    ]);
  });

  it('finds unflagged credentials, also inside object types, but not label keys', () => {
    expect(credentialProblems(nodes, [])).to.deep.equal([
      'provider "demo".api_token',
      'demo_thing.password',
      'demo_thing.entries[].token (inside `demo_thing.entries`, which is not sensitive)',
    ]);
    expect(credentialProblems(nodes, [{ where: 'demo_thing.entries[].token', reason: 'test' }])).to.have.length(2);
  });

  it('finds missing descriptions', () => {
    expect(descriptionProblems(nodes, broken)).to.deep.equal([
      'demo_thing.password',
      'action.demo_poke.target',
      'demo_thing.area: the description says it is deprecated, which the deprecation message says',
      'demo_other: no description',
      'action.demo_poke: does not say what an interrupted run leaves',
    ]);
  });

  it('finds an ordered list that says order does not matter, and a set that does not say it', () => {
    const set = nodes.find((n) => n.where === 'demo_thing.labels')!;
    expect(set.schemaDescription, 'the schema adds the note to a set').to.match(/order of its entries does not matter/);
    const unsaid = { ...set, schemaDescription: 'Labels.' };
    expect(orderProblems([...nodes, unsaid])).to.deep.equal([
      'demo_thing.entries: ordered, but says order does not matter',
      'demo_thing.labels: unordered, and does not say so',
    ]);
  });

  it('finds computed action arguments', () => {
    expect(computedActionArguments(nodes)).to.deep.equal([
      'action.demo_poke.force: computed (an action keeps no state; give its default in the description and the code)',
    ]);
  });

  it('finds missing examples and acceptance cases', () => {
    const files: Record<string, string> = { 'examples/demo/demo_thing/main.tf': 'resource "demo_thing" "x" {}' };
    expect(exampleProblems('demo', broken, (p) => files[p])).to.deep.equal([
      'resource demo_thing: no test/acceptance/cases/demo/demo_thing.json',
      'resource demo_other: no examples/demo/demo_other/main.tf',
      'action demo_poke: no examples/demo/actions/demo_poke/main.tf',
    ]);
    files['examples/demo/actions/demo_poke/main.tf'] = 'resource "demo_thing" "x" {}';
    expect(exampleProblems('demo', broken, (p) => files[p])).to.include(
      'action demo_poke: examples/demo/actions/demo_poke/main.tf does not use it',
    );
  });

  it('finds optional attributes that the platform fills but are not computed', () => {
    expect(
      filledByPlatformProblems('demo', nodes, [{ where: 'demo_thing.region', reason: 'the platform picks one' }]),
    ).to.deep.equal([
      'demo_thing.expires_at: optional but not computed, although its name says the platform sets it',
      'demo_thing.region: optional but not computed (the platform picks one)',
    ]);
    expect(filledByPlatformProblems('demo', nodes, [{ where: 'demo_thing.zone', reason: 'x' }])).to.include(
      'demo_thing.zone: no such attribute (renamed or removed?)',
    );
  });
});
