/**
 * Reference documentation in the Terraform registry's layout, rendered from the declarations alone:
 * one page per resource and data source plus the provider page. Everything a page says comes from
 * the schema (descriptions, flags, defaults, validators, replacement, import) or from the example
 * beside it, so the pages cannot drift from the code once `npm run docs` has run (the docs test
 * compares the committed tree with a fresh rendering).
 *
 * Output is deterministic: fields are sorted, nothing depends on time or the machine.
 *
 * This module holds the page of each kind (provider index, resource, list resource, ephemeral
 * resource, action, data source). What they are made of is beside it: the fields in fields.ts, the
 * sections beyond the fields in sections.ts, page paths in paths.ts, Markdown text in text.ts.
 */
import type {
  ActionDef,
  DataSourceDef,
  EphemeralDef,
  ProviderDef,
  ResourceDef,
} from '../../packages/framework/src/engine/contracts/index.js';
import { findExample, type FileReader } from './examples.js';
import { renderFieldsOf } from './fields.js';
import { renderFunctionPage } from './functions.js';
import { docPaths } from './paths.js';
import {
  identityBullets,
  identitySection,
  importSection,
  interruptionSection,
  leftOpenSection,
  migrationSection,
} from './sections.js';
import { exampleSection, finish, frontMatter, sentence, sortByType } from './text.js';
import { deprecationNote, withoutDeprecation } from '../../packages/framework/src/schema/define.js';

export { SENSITIVE_OUTPUT, constraintSentence, formatDefault, typeName } from './fields.js';
export { docPaths, type DocPaths } from './paths.js';
export { importPlaceholder } from './sections.js';
export type { FileReader } from './examples.js';

export interface RenderOptions {
  /** Where examples come from (`examples/<provider>/...`). */
  readFile: FileReader;
}

/** Page path relative to `docs/` (e.g. `sec/resources/alert_channel_email.md`) → page text. */
export type DocTree = Map<string, string>;

type AnyResource = ResourceDef<any, any>;
type AnyDataSource = DataSourceDef<any, any>;
type AnyProvider = ProviderDef<any, any>;

/** Every page of one provider. */
export function renderProviderDocs(def: AnyProvider, options: RenderOptions): DocTree {
  const tree: DocTree = new Map();
  const pages = docPaths(def);
  tree.set(pages.index, renderIndexPage(def, options));
  for (const r of def.resources) tree.set(pages.resources.get(r.typeName)!, renderResourcePage(def, r, options));
  for (const d of def.dataSources) tree.set(pages.dataSources.get(d.typeName)!, renderDataSourcePage(def, d, options));
  for (const e of def.ephemeralResources ?? [])
    tree.set(pages.ephemeralResources.get(e.typeName)!, renderEphemeralPage(def, e, options));
  for (const r of def.resources)
    if (r.list) tree.set(pages.listResources.get(r.typeName)!, renderListPage(def, r, options));
  for (const a of def.actions ?? []) tree.set(pages.actions.get(a.typeName)!, renderActionPage(def, a, options));
  for (const f of def.functions ?? [])
    tree.set(pages.functions.get(f.name)!, renderFunctionPage(def.name, f, options.readFile));
  return new Map([...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// ---------------------------------------------------------------------------------------------------
// Pages

function renderIndexPage(def: AnyProvider, options: RenderOptions): string {
  const paths = docPaths(def);
  const out: string[] = [];
  out.push(...frontMatter(`${def.name} Provider`, def.schema.block.description));
  out.push(`# ${def.name} Provider`, '');
  out.push(def.schema.block.description, '');
  out.push(
    `Provider version ${def.version}; source address \`${def.namespace ? `${def.namespace}/` : ''}${def.name}\`.`,
    '',
  );
  const example = options.readFile(`examples/${def.name}/main.tf`);
  if (example !== undefined) out.push(...exampleSection(example));
  out.push('## Argument Reference', '');
  const args = renderFieldsOf(def.schema, { what: 'provider' });
  if (args.arguments.length === 0) out.push('This provider takes no arguments.', '');
  else
    out.push(
      'The provider block supports the following arguments, all of them optional unless marked required:',
      '',
      ...args.arguments,
      '',
    );
  out.push(...args.nested);
  out.push(...migrationSection(def));
  const link = (p: string) => p.slice(def.name.length + 1);
  if (def.resources.length > 0) {
    out.push('## Resources', '');
    for (const r of sortByType(def.resources))
      out.push(`* [\`${r.typeName}\`](${link(paths.resources.get(r.typeName)!)})`);
    out.push('');
  }
  if (def.dataSources.length > 0) {
    out.push('## Data Sources', '');
    for (const d of sortByType(def.dataSources))
      out.push(`* [\`${d.typeName}\`](${link(paths.dataSources.get(d.typeName)!)})`);
    out.push('');
  }
  const ephemerals = def.ephemeralResources ?? [];
  if (ephemerals.length > 0) {
    out.push('## Ephemeral Resources', '');
    for (const e of sortByType(ephemerals))
      out.push(`* [\`${e.typeName}\`](${link(paths.ephemeralResources.get(e.typeName)!)})`);
    out.push('');
  }
  const lists = def.resources.filter((r) => r.list);
  if (lists.length > 0) {
    out.push('## List Resources', '');
    out.push(
      `Terraform 1.14 and later find existing objects with \`terraform query\`; every example is in ` +
        `\`examples/${def.name}/query/\`.`,
      '',
    );
    for (const r of sortByType(lists)) out.push(`* [\`${r.typeName}\`](${link(paths.listResources.get(r.typeName)!)})`);
    out.push('');
  }
  const actions = def.actions ?? [];
  if (actions.length > 0) {
    out.push('## Actions', '');
    out.push(
      'Terraform 1.14 and later run actions on their own (`terraform apply -invoke=action.<type>.<name>`) or ' +
        'before or after a change of a resource (`action_trigger` in its `lifecycle`); every example is in ' +
        `\`examples/${def.name}/actions/\`.`,
      '',
    );
    for (const a of sortByType(actions)) out.push(`* [\`${a.typeName}\`](${link(paths.actions.get(a.typeName)!)})`);
    out.push('');
  }
  const functions = [...(def.functions ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1));
  if (functions.length > 0) {
    out.push('## Functions', '');
    out.push(
      `Terraform 1.8 and later and OpenTofu 1.7 and later call them as \`provider::${def.name}::<name>(…)\`; ` +
        `every example is in \`examples/${def.name}/functions/\`.`,
      '',
    );
    for (const f of functions) out.push(`* [\`${f.name}\`](${link(paths.functions.get(f.name)!)}): ${f.summary}`);
    out.push('');
  }
  return finish(out);
}

function renderResourcePage(def: AnyProvider, r: AnyResource, options: RenderOptions): string {
  const out: string[] = [];
  const block = r.schema.block;
  out.push(...frontMatter(`${r.typeName} Resource - ${def.name}`, block.description));
  out.push(`# ${r.typeName} (Resource)`, '');
  if (block.deprecationMessage) out.push(`!> ${deprecationNote(sentence(block.deprecationMessage))}`, '');
  out.push(withoutDeprecation(block.description, block.deprecationMessage), '');
  const example = findExample(def.name, 'resource', r.typeName, options.readFile);
  if (example !== undefined) out.push(...exampleSection(example.mainTf));
  const fields = renderFieldsOf(r.schema, { what: 'resource' });
  out.push('## Argument Reference', '');
  if (fields.arguments.length === 0) out.push('This resource takes no arguments.', '');
  else out.push('The following arguments are supported:', '', ...fields.arguments, '');
  out.push('## Attributes Reference', '');
  if (fields.attributes.length === 0) out.push('This resource exports no attributes beyond its arguments.', '');
  else
    out.push(
      'In addition to the arguments above, the following attributes are exported:',
      '',
      ...fields.attributes,
      '',
    );
  out.push(...fields.nested);
  out.push(...interruptionSection(r));
  out.push(...identitySection(def, r));
  out.push(...importSection(r));
  return finish(out);
}

/** A list resource (Terraform 1.14 and later): the filters of its `config` block and what each result carries. */
function renderListPage(def: AnyProvider, r: AnyResource, options: RenderOptions): string {
  const list = r.list!;
  const out: string[] = [];
  const block = list.schema.block;
  out.push(...frontMatter(`${r.typeName} List Resource - ${def.name}`, block.description));
  out.push(`# ${r.typeName} (List Resource)`, '');
  out.push(block.description, '');
  out.push(
    `List resources need Terraform 1.14 or later. \`terraform query\` runs the \`list\` blocks of the ` +
      `\`.tfquery.hcl\` files in a directory and shows the objects they find; \`terraform query ` +
      `-generate-config-out=generated.tf\` also writes a \`resource\` block and an \`import\` block (by identity) ` +
      `for each, to bring existing objects under Terraform.`,
    '',
  );
  const example = findExample(def.name, 'list', r.typeName, options.readFile);
  if (example !== undefined) out.push(...exampleSection(example.mainTf));
  out.push('## Argument Reference', '');
  const fields = renderFieldsOf(list.schema, { what: 'list resource' });
  if (fields.arguments.length === 0) out.push('This list resource has no filters: leave out the `config` block.', '');
  else out.push('The `config` block supports:', '', ...fields.arguments, '');
  out.push(
    'Besides `config`, a `list` block takes `provider`, `include_resource` (whether each result carries the whole ' +
      "object, as its resource's state; default `false`, always on with `-generate-config-out`) and `limit` (how " +
      'many results at most; default 100).',
    '',
  );
  out.push('## Results', '');
  const resourcePage = docPaths(def).resources.get(r.typeName)!.split('/').pop();
  out.push(
    `Each result carries a display name for people and the object's identity, below; with \`include_resource\`, also ` +
      `the object itself, with the attributes of [the resource](../resources/${resourcePage}).`,
    '',
  );
  out.push(...identityBullets(r), '');
  return finish(out);
}

/** An ephemeral resource: its value lives for one run and is never stored (Terraform 1.10 and later). */
function renderEphemeralPage(def: AnyProvider, e: EphemeralDef<any, any>, options: RenderOptions): string {
  const out: string[] = [];
  const block = e.schema.block;
  out.push(...frontMatter(`${e.typeName} Ephemeral Resource - ${def.name}`, block.description));
  out.push(`# ${e.typeName} (Ephemeral Resource)`, '');
  out.push(block.description, '');
  out.push(
    'Ephemeral resources need Terraform 1.10 or later. Their values can be used in provider blocks, write-only ' +
      'arguments, other ephemeral resources and ephemeral outputs; they are never written to the plan or the state.',
    '',
  );
  const example = findExample(def.name, 'ephemeral', e.typeName, options.readFile);
  if (example !== undefined) out.push(...exampleSection(example.mainTf));
  const fields = renderFieldsOf(e.schema, { what: 'ephemeral resource' });
  out.push('## Argument Reference', '');
  if (fields.arguments.length === 0) out.push('This ephemeral resource takes no arguments.', '');
  else out.push('The following arguments are supported:', '', ...fields.arguments, '');
  out.push('## Attributes Reference', '');
  out.push('The following attributes are exported:', '', ...fields.attributes, '');
  out.push(...fields.nested);
  if (e.close) out.push(...leftOpenSection());
  return finish(out);
}

/** An action (Terraform 1.14 and later): its `config` block, how it runs and what an interrupted run leaves. */
function renderActionPage(def: AnyProvider, a: ActionDef<any, any>, options: RenderOptions): string {
  const out: string[] = [];
  const block = a.schema.block;
  out.push(...frontMatter(`${a.typeName} Action - ${def.name}`, block.description));
  out.push(`# ${a.typeName} (Action)`, '');
  out.push(block.description, '');
  out.push(
    'Actions need Terraform 1.14 or later. An `action` block declares the action and its `config`; ' +
      `\`terraform apply -invoke=action.${a.typeName}.<name>\` runs it on its own, and an \`action_trigger\` block ` +
      "in a resource's `lifecycle` runs it before or after the resource is created or updated (`before_create`, " +
      '`after_create`, `before_update`, `after_update`). Terraform shows its progress as it runs; an action ' +
      'keeps nothing in the state. An action that runs before a change of a resource cannot refer to that ' +
      'resource: Terraform reports a cycle.',
    '',
  );
  const example = findExample(def.name, 'action', a.typeName, options.readFile);
  if (example !== undefined) out.push(...exampleSection(example.mainTf));
  const fields = renderFieldsOf(a.schema, { what: 'action' });
  out.push('## Argument Reference', '');
  if (fields.arguments.length === 0) out.push('This action takes no arguments: leave out the `config` block.', '');
  else out.push('The `config` block supports:', '', ...fields.arguments, '');
  out.push(...fields.nested);
  out.push(
    '## Validation, planning and failures',
    '',
    'Terraform validates the `config` block before it plans, and plans the action before it runs it: what the ' +
      'arguments alone show to be wrong is refused then, at its argument, and nothing is sent to the platform. ' +
      'A failure of the platform ends the run with an error that says what happened; in an `action_trigger` ' +
      'before a change, it stops the apply before the resource is changed.',
    '',
  );
  out.push('## Interrupted runs', '', a.interruption, '');
  return finish(out);
}

function renderDataSourcePage(def: AnyProvider, d: AnyDataSource, options: RenderOptions): string {
  const out: string[] = [];
  const block = d.schema.block;
  out.push(...frontMatter(`${d.typeName} Data Source - ${def.name}`, block.description));
  out.push(`# ${d.typeName} (Data Source)`, '');
  if (block.deprecationMessage) out.push(`!> ${deprecationNote(sentence(block.deprecationMessage))}`, '');
  out.push(withoutDeprecation(block.description, block.deprecationMessage), '');
  const example = findExample(def.name, 'data-source', d.typeName, options.readFile);
  if (example !== undefined) out.push(...exampleSection(example.mainTf));
  const fields = renderFieldsOf(d.schema, { what: 'data source' });
  out.push('## Argument Reference', '');
  if (fields.arguments.length === 0) out.push('This data source takes no arguments.', '');
  else out.push('The following arguments are supported:', '', ...fields.arguments, '');
  out.push('## Attributes Reference', '');
  if (fields.attributes.length === 0) out.push('This data source exports no attributes beyond its arguments.', '');
  else
    out.push(
      'In addition to the arguments above, the following attributes are exported:',
      '',
      ...fields.attributes,
      '',
    );
  out.push(...fields.nested);
  return finish(out);
}
