/**
 * Reference documentation in the Terraform registry's layout, rendered from the declarations alone:
 * one page per resource and data source plus the provider page. Everything a page says comes from
 * the schema (descriptions, flags, defaults, validators, replacement, import) or from the example
 * beside it, so the pages cannot drift from the code once `npm run docs` has run (the docs test
 * compares the committed tree with a fresh rendering).
 *
 * Output is deterministic: fields are sorted, nothing depends on time or the machine.
 */
import type { ActionDef, DataSourceDef, EphemeralDef, ProviderDef, ResourceDef } from '../engine/contracts.js';
import { requiredUnreadable, type FieldDef, type Fields, type Unreadable } from '../schema/define.js';
import type { Value } from '../schema/value.js';
import { findExample, type FileReader } from './examples.js';
import { formatDefault, renderFieldsOf } from './fields.js';
import { exampleSection, finish, frontMatter, joinAnd, lowerFirst, sentence, sortByType } from './text.js';

export { SENSITIVE_OUTPUT, constraintSentence, formatDefault, typeName } from './fields.js';
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
  return new Map([...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface DocPaths {
  index: string;
  resources: Map<string, string>;
  dataSources: Map<string, string>;
  ephemeralResources: Map<string, string>;
  listResources: Map<string, string>;
  actions: Map<string, string>;
}

/**
 * Where each page goes: `<provider>/index.md`, `<provider>/resources/<name>.md`,
 * `<provider>/data-sources/<name>.md`, `<provider>/ephemeral-resources/<name>.md`,
 * `<provider>/list-resources/<name>.md` and `<provider>/actions/<name>.md`, where `<name>` is the type
 * without the provider prefix, as the registry names its pages.
 */
export function docPaths(def: AnyProvider): DocPaths {
  const short = (typeName: string) =>
    typeName.startsWith(`${def.name}_`) ? typeName.slice(def.name.length + 1) : typeName;
  return {
    index: `${def.name}/index.md`,
    resources: new Map(def.resources.map((r) => [r.typeName, `${def.name}/resources/${short(r.typeName)}.md`])),
    dataSources: new Map(def.dataSources.map((d) => [d.typeName, `${def.name}/data-sources/${short(d.typeName)}.md`])),
    ephemeralResources: new Map(
      (def.ephemeralResources ?? []).map((e) => [
        e.typeName,
        `${def.name}/ephemeral-resources/${short(e.typeName)}.md`,
      ]),
    ),
    listResources: new Map(
      def.resources
        .filter((r) => r.list)
        .map((r) => [r.typeName, `${def.name}/list-resources/${short(r.typeName)}.md`]),
    ),
    actions: new Map((def.actions ?? []).map((a) => [a.typeName, `${def.name}/actions/${short(a.typeName)}.md`])),
  };
}

// ---------------------------------------------------------------------------------------------------
// Pages

function renderIndexPage(def: AnyProvider, options: RenderOptions): string {
  const paths = docPaths(def);
  const out: string[] = [];
  out.push(...frontMatter(`${def.name} Provider`, def.schema.block.description));
  out.push(`# ${def.name} Provider`, '');
  out.push(def.schema.block.description, '');
  out.push(`Provider version ${def.version}; source address \`keel/${def.name}\`.`, '');
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
  return finish(out);
}

function renderResourcePage(def: AnyProvider, r: AnyResource, options: RenderOptions): string {
  const out: string[] = [];
  const block = r.schema.block;
  out.push(...frontMatter(`${r.typeName} Resource - ${def.name}`, block.description));
  out.push(`# ${r.typeName} (Resource)`, '');
  if (block.deprecated)
    out.push('!> **Deprecated:** this resource is deprecated and will be removed in a future version.', '');
  out.push(block.description, '');
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

/** The identity attributes; with their role in an import by identity where the type can be imported. */
function identityBullets(r: AnyResource): string[] {
  return Object.entries(r.identity?.attributes ?? {}).map(
    ([name, a]) =>
      `* \`${name}\` - (String${r.importState ? `, ${a.forImport} for import` : ''}) ${sentence(a.description)}`,
  );
}

/** What names the object for Terraform 1.12 and later, and how `terraform query` finds it. */
function identitySection(def: AnyProvider, r: AnyResource): string[] {
  if (!r.identity) return [];
  const out = ['## Identity', ''];
  out.push(
    `Terraform 1.12 and later keep the identity of each object beside its state; it names the object for its whole ` +
      `life and never changes. ${
        r.importState
          ? 'An `import` block may give it instead of an import id, leaving out the attributes that are optional for ' +
            'import.'
          : 'This type cannot be imported, so the identity only names the object in the state.'
      }`,
    '',
  );
  out.push(...identityBullets(r), '');
  if (r.list) {
    const page = docPaths(def).listResources.get(r.typeName)!.split('/').pop();
    out.push(
      'Terraform 1.14 and later find existing objects of this type with `terraform query`: ' +
        `see the [list resource](../list-resources/${page}).`,
      '',
    );
  }
  return out;
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

/** What happens to an opened value Terraform never closes (README, "Interrupted applies and lost answers"). */
function leftOpenSection(): string[] {
  return [
    '## When Terraform does not close it',
    '',
    'Terraform closes an ephemeral resource when the run no longer needs it, ' +
      'but Terraform 1.11 skips that when a resource or provisioner that uses the value fails, ' +
      'or when the run is interrupted. ' +
      'The provider then closes what it opened itself when Terraform shuts it down at the end of the command, ' +
      'and names each value it closes (or could not close, with its id and expiry) ' +
      'in a warning in the provider log (`TF_LOG_PROVIDER=warn`). ' +
      'If Terraform itself is killed (SIGKILL, a second Ctrl-C), nothing can close it: ' +
      'the value lives until it expires.',
    '',
  ];
}

function renderDataSourcePage(def: AnyProvider, d: AnyDataSource, options: RenderOptions): string {
  const out: string[] = [];
  const block = d.schema.block;
  out.push(...frontMatter(`${d.typeName} Data Source - ${def.name}`, block.description));
  out.push(`# ${d.typeName} (Data Source)`, '');
  if (block.deprecated)
    out.push('!> **Deprecated:** this data source is deprecated and will be removed in a future version.', '');
  out.push(block.description, '');
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

/** What a user can rely on when a create's answer is lost or the apply is interrupted (README, same title). */
function interruptionSection(r: AnyResource): string[] {
  const out = ['## Interrupted applies and lost answers', ''];
  const lookup = r.findCreated;
  if (lookup) {
    out.push(
      'If the answer to a create is lost (a dropped connection, a gateway error, a deadline, ' +
        'Terraform interrupted with Ctrl-C), the request may have made the object or may never have arrived. ' +
        `The provider then looks for the object by ${lookup.key}, ` +
        'and keeps it in the state only with evidence that this create made it: ' +
        'it was not among the objects the provider listed before sending the create, ' +
        'no other resource of the run made it, it holds what the configuration sets, and it is the only such object. ' +
        'When no new object exists, the request is sent again. ' +
        'Otherwise the apply stops with "Create outcome unknown", ' +
        'naming each object found and how to import the right one; nothing is adopted or deleted.',
      '',
    );
    const unique =
      lookup.uniqueKey === true
        ? `The platform keeps ${lookup.key} unique: a create whose key an existing object holds fails with "already ` +
          `exists", naming that object and how to import it. It is never taken over.`
        : lookup.uniqueKey === false
          ? `The platform does not keep ${lookup.key} unique: objects with the same key that this configuration did ` +
            `not make (another workspace's, one made in the console, the object a \`create_before_destroy\` ` +
            `replacement replaces) are never adopted.`
          : `The platform keeps the key unique for some configurations (see above): there, a create whose key an ` +
            `existing object holds fails with "already exists", naming that object and how to import it. Objects ` +
            `with the same key that this configuration did not make are never adopted.`;
    out.push(unique, '');
    const oneTime = Object.entries(r.schema.fields as Fields)
      .filter(([, d]) => d.kind === 'attr' && d.options.oneTime)
      .map(([n]) => `\`${n}\``);
    if (oneTime.length > 0) {
      out.push(
        `Its ${oneTime.join(', ')} comes only in the answer to the create, so an object this create provably made ` +
          `but whose answer was lost is deleted and created again; after Ctrl-C it is kept in the state, marked ` +
          `tainted, and the next apply replaces it.`,
        '',
      );
    }
  } else if (r.repeatableCreate) out.push(r.repeatableCreate, '');
  out.push(
    'A create interrupted after the object exists keeps it in the state, marked tainted: the next apply replaces it.',
    '',
  );
  return out;
}

/**
 * What a configuration written for the upstream provider needs: every value sensitive here that the
 * upstream provider did not mark (`sensitiveUnlikeUpstream`), which its outputs must now mark too.
 */
function migrationSection(def: AnyProvider): string[] {
  const marked = [...sortByType(def.resources), ...sortByType(def.dataSources)].flatMap((r) => {
    const paths = fieldPaths(r.schema.fields as Fields)
      .filter(([, d]) => d.kind === 'attr' && d.options.sensitiveUnlikeUpstream)
      .map(([p]) => `\`${p}\``);
    const kind = def.dataSources.includes(r as AnyDataSource) ? ' (data source)' : '';
    return paths.length > 0 ? [`* \`${r.typeName}\`${kind}: ${paths.join(', ')}`] : [];
  });
  if (marked.length === 0) return [];
  return [
    '## Migrating from the upstream provider',
    '',
    'These values are sensitive here, though the upstream provider did not mark them so. ' +
      'Terraform refuses an `output` that shows a sensitive value unless the output sets `sensitive = true`, ' +
      'so an output of one of them written for the upstream provider needs `sensitive = true` added:',
    '',
    ...marked,
    '',
  ];
}

/** Every field with its path from the top (`credentials.client_secret`), blocks before their fields. */
function fieldPaths(fields: Fields, prefix = ''): Array<[string, FieldDef]> {
  return Object.keys(fields)
    .sort()
    .flatMap((name): Array<[string, FieldDef]> => {
      const def = fields[name]!;
      const path = prefix === '' ? name : `${prefix}.${name}`;
      return def.kind === 'block' ? [[path, def], ...fieldPaths(def.fields, path)] : [[path, def]];
    });
}

/**
 * What an import cannot read back from the platform: the provider's own settings (an import gives
 * their defaults) and arguments that declare what an import sets them to (`onImport`).
 */
function importLimits(r: AnyResource): string[] {
  const lines = fieldPaths(r.schema.fields as Fields).flatMap(([path, d]) => {
    if (d.kind !== 'attr') return [];
    const o = d.options;
    if (o.onImport !== undefined) return [`* \`${path}\`: ${lowerFirst(sentence(o.onImport))}`];
    if (!o.providerOnly) return [];
    const value = o.default !== undefined ? `its default, \`${formatDefault(o.default as Value)}\`` : 'null';
    return [
      `* \`${path}\` is the provider's own setting, which the platform does not keep: an import sets it to ${value}. ` +
        'A configuration that sets another value records it at the first apply after the import, ' +
        'without calling the platform.',
    ];
  });
  if (lines.length === 0) return [];
  return ['What the platform does not say comes back from an import as follows:', '', ...lines, ''];
}

function importSection(r: AnyResource): string[] {
  const out = ['## Import', ''];
  if (!r.importState) {
    out.push('This resource cannot be imported.', '');
    return out;
  }
  const what = r.importIdDescription ?? 'the identifier of the object';
  const placeholder = importPlaceholder(what);
  out.push(`The import id is ${what}.`, '');
  out.push('With an `import` block (Terraform 1.5 and later):', '');
  out.push('```terraform', 'import {', `  to = ${r.typeName}.example`, `  id = "${placeholder}"`, '}', '```', '');
  const required = Object.entries(r.identity?.attributes ?? {}).filter(([, a]) => a.forImport === 'required');
  if (required.length > 0) {
    const width = Math.max(...required.map(([n]) => n.length));
    out.push('With its identity (Terraform 1.12 and later):', '');
    out.push(
      '```terraform',
      'import {',
      `  to = ${r.typeName}.example`,
      '  identity = {',
      ...required.map(([n]) => `    ${n.padEnd(width)} = "<${n}>"`),
      '  }',
      '}',
      '```',
      '',
    );
  }
  out.push('With the `terraform import` command:', '');
  out.push('```shell', `terraform import ${r.typeName}.example '${placeholder}'`, '```', '');
  out.push(...importLimits(r));
  out.push(...generatedConfiguration(r));
  return out;
}

/** What configuration Terraform generates for imported objects lacks (`requiredUnreadable`), and what to do. */
function generatedConfiguration(r: AnyResource): string[] {
  const sentences = [
    '`terraform plan -generate-config-out=generated.tf`, with `import` blocks and no `resource` blocks, ' +
      'writes the configuration of the imported objects (Terraform 1.5 and later; it leaves out deprecated ' +
      'arguments, which an import never sets).',
  ];
  const missing = requiredUnreadable(r.schema.fields);
  if (missing.length === 0) {
    sentences.push('It plans as written, and the apply imports the objects without changing them.');
    return [sentences.join(' '), ''];
  }
  const names = (list: readonly Unreadable[], suffix = '', word = 'and') =>
    joinAnd(
      list.map((u) => `\`${u.path.join('.')}${suffix}\``),
      word,
    );
  const it = (list: readonly Unreadable[]) => (list.length === 1 ? 'it' : 'them');
  const secrets = missing.filter((u) => u.secret);
  const hidden = missing.filter((u) => !u.secret);
  if (secrets.length > 0) {
    const twins = secrets.filter((u) => twinOf(r.schema.fields, u.path));
    const orWriteOnly = twins.length > 0 ? ` (or the write-only ${names(twins, '_wo', 'or')})` : '';
    sentences.push(
      // Whether or not the platform returns it: Terraform never writes a sensitive value out.
      `It cannot hold ${names(secrets)}, which ${secrets.length === 1 ? 'is' : 'are'} sensitive: Terraform writes ` +
        `${secrets.length === 1 ? 'it' : 'each'} as \`null # sensitive\`, and the plan stops with ` +
        `"Missing configuration for required argument". Fill ${it(secrets)} in${orWriteOnly} before planning; ` +
        `the first apply sends ${it(secrets)} once and changes nothing else.`,
    );
  }
  if (hidden.length > 0) {
    sentences.push(
      `${names(hidden)} ${hidden.length === 1 ? 'is' : 'are'} written as \`null\` where the platform leaves ` +
        `${it(hidden)} out of its answers: fill ${it(hidden)} in` +
        `${secrets.length > 0 ? ' too' : ` before planning; the first apply sends ${it(hidden)} once`}.`,
    );
  }
  return [sentences.join(' '), ''];
}

/** Whether the argument at `path` has a write-only twin. */
function twinOf(fields: Fields, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  const def = fields[head!];
  if (!def) return false;
  if (def.kind === 'block') return twinOf(def.fields, rest);
  return rest.length === 0 && def.options.writeOnlyTwin !== undefined;
}

/**
 * The id placeholder an import description suggests: its form when it shows one (`<cluster_id>/<id>`),
 * `<name>` when it names an attribute (`intg_guid`), else `<id>`.
 */
export function importPlaceholder(description: string): string {
  const code = /`([^`]+)`/.exec(description)?.[1];
  if (code?.startsWith('<')) return code;
  if (code && /^[a-z][a-z0-9_]*$/.test(code)) return `<${code}>`;
  return '<id>';
}
