/**
 * The generated reference docs: every registered resource and data source has a page, the pages say
 * what the schema says (sensitive values, defaults, allowed values, replacement, deprecation, nested
 * blocks, import), and the committed `docs/` tree is exactly what `npm run docs` renders today.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProviderDef } from '../../src/providers/describe.js';
import {
  provider,
  resource,
  dataSource,
  type ProviderDef,
} from '../../packages/framework/src/engine/contracts/index.js';
import {
  attr,
  block,
  resourceSchema,
  t,
  validators,
  type AttrOptions,
  type Fields,
} from '../../packages/framework/src/schema/define.js';
import {
  compareTrees,
  generateDocs,
  readDocsTree,
  DOC_PROVIDERS,
  REGENERATE_COMMAND,
} from '../../src/docs/generate.js';
import { findExample } from '../../src/docs/examples.js';
import { SENSITIVE_OUTPUT, constraintSentence, docPaths, importPlaceholder } from '../../src/docs/render.js';
import { renderProviderDocs } from '../../src/docs/render.js';
import type { DocTree } from '../../src/docs/render.js';
import type { SchemaBlock } from '../../packages/framework/src/schema/block.js';

const REPO_ROOT = process.cwd();

/** The bullet of field `name` on a page (the first one, top level before nested sections). */
function bulletOf(page: string, name: string): string {
  const line = page.split('\n').find((l) => l.startsWith(`* \`${name}\` - `));
  if (!line) throw new Error(`no bullet for ${name} in:\n${page}`);
  return line;
}

/** Names of the sensitive attributes at the top level of a block. */
const sensitiveAttributes = (b: SchemaBlock) =>
  Object.values(b.attributes)
    .filter((a) => a.sensitive)
    .map((a) => a.name);

describe('docs: the real providers', () => {
  let fresh: DocTree;
  before(async () => {
    fresh = await generateDocs(REPO_ROOT);
  });

  for (const name of DOC_PROVIDERS) {
    it(`${name}: has an index page and a page per registered resource, data source, ephemeral resource and action`, async () => {
      const def = await loadProviderDef(name);
      const paths = docPaths(def);
      expect(fresh.has(paths.index), paths.index).to.equal(true);
      expect(fresh.get(paths.index)).to.include(`# ${name} Provider`);
      for (const r of def.resources) {
        const page = fresh.get(paths.resources.get(r.typeName)!);
        expect(page, r.typeName).to.be.a('string');
        expect(page).to.include(`# ${r.typeName} (Resource)`);
        expect(page).to.include('## Argument Reference');
        expect(page).to.include('## Import');
        // The index links every page.
        expect(fresh.get(paths.index)).to.include(`[\`${r.typeName}\`](resources/`);
      }
      for (const d of def.dataSources) {
        const page = fresh.get(paths.dataSources.get(d.typeName)!);
        expect(page, d.typeName).to.be.a('string');
        expect(page).to.include(`# ${d.typeName} (Data Source)`);
        expect(page).to.not.include('## Import');
      }
      for (const e of def.ephemeralResources ?? []) {
        const page = fresh.get(paths.ephemeralResources.get(e.typeName)!);
        expect(page, e.typeName).to.be.a('string');
        expect(page)
          .to.include(`# ${e.typeName} (Ephemeral Resource)`)
          .and.include('Terraform 1.10 or later')
          .and.include(`ephemeral "${e.typeName}"`);
        expect(fresh.get(paths.index)).to.include(`[\`${e.typeName}\`](ephemeral-resources/`);
      }
      expect(def.actions ?? [], 'every provider has actions').to.not.have.length(0);
      for (const a of def.actions ?? []) {
        const page = fresh.get(paths.actions.get(a.typeName)!);
        expect(page, a.typeName).to.be.a('string');
        expect(page)
          .to.include(`# ${a.typeName} (Action)`)
          .and.include('Terraform 1.14 or later')
          .and.include('The `config` block supports:')
          .and.include(`action "${a.typeName}"`)
          .and.include('## Interrupted runs')
          .and.include(a.interruption);
        // Every argument is documented, with its own description.
        for (const [field, d] of Object.entries(a.schema.fields as Fields))
          expect(page).to.include(`* \`${field}\` - `).and.include(d.options.description);
        expect(fresh.get(paths.index)).to.include(`[\`${a.typeName}\`](actions/`);
      }
      expect(def.functions ?? [], 'every provider has functions').to.not.have.length(0);
      for (const f of def.functions ?? []) {
        const page = fresh.get(paths.functions.get(f.name)!);
        expect(page, f.name)
          .to.be.a('string')
          .and.include(`# function: ${f.name}`)
          .and.include(`provider::${name}::${f.name}(`)
          .and.include('## Signature')
          .and.include('## Arguments')
          .and.include('## Example Usage');
        for (const p of [...f.parameters, ...(f.variadic ? [f.variadic] : [])])
          expect(page).to.include(`1. \`${p.name}\` (`).and.include(p.description);
        expect(fresh.get(paths.index)).to.include(`[\`${f.name}\`](functions/`);
      }
      // Nothing else: no page for a type that is not registered.
      const expected = new Set([
        paths.index,
        ...paths.resources.values(),
        ...paths.dataSources.values(),
        ...paths.ephemeralResources.values(),
        ...paths.listResources.values(),
        ...paths.actions.values(),
        ...paths.functions.values(),
      ]);
      expect([...fresh.keys()].filter((p) => p.startsWith(`${name}/`) && !expected.has(p))).to.deep.equal([]);
    });

    it(`${name}: marks every sensitive top-level attribute sensitive on its page`, async () => {
      const def = await loadProviderDef(name);
      const paths = docPaths(def);
      const pages: Array<[string, SchemaBlock]> = [
        [paths.index, def.schema.block],
        ...def.resources.map((r): [string, SchemaBlock] => [paths.resources.get(r.typeName)!, r.schema.block]),
        ...def.dataSources.map((d): [string, SchemaBlock] => [paths.dataSources.get(d.typeName)!, d.schema.block]),
      ];
      let checked = 0;
      for (const [path, b] of pages) {
        for (const a of sensitiveAttributes(b)) {
          expect(bulletOf(fresh.get(path)!, a), `${path} ${a}`).to.match(
            /^\* `[a-z0-9_]+` - \([^)]*Sensitive[^)]*\).*This value is sensitive/,
          );
          checked++;
        }
      }
      // Both providers have sensitive settings (sec api_key…, vdb api_key).
      expect(checked).to.be.greaterThan(0);
    });
  }

  /** Paths (`block.attribute`) of the attributes of `fields`, at any depth, that `pick` chooses. */
  const attributePaths = (fields: Fields, pick: (o: AttrOptions<unknown>) => boolean, prefix = ''): string[] =>
    Object.entries(fields).flatMap(([n, d]) =>
      d.kind === 'block' ? attributePaths(d.fields, pick, `${prefix}${n}.`) : pick(d.options) ? [`${prefix}${n}`] : [],
    );

  for (const name of DOC_PROVIDERS) {
    it(`${name}: every sensitive value a resource or data source stores says how to output it`, async () => {
      const def = await loadProviderDef(name);
      const paths = docPaths(def);
      const pages: Array<[string, SchemaBlock]> = [
        ...def.resources.map((r): [string, SchemaBlock] => [paths.resources.get(r.typeName)!, r.schema.block]),
        ...def.dataSources.map((d): [string, SchemaBlock] => [paths.dataSources.get(d.typeName)!, d.schema.block]),
      ];
      const outputs = (block: SchemaBlock): number =>
        Object.values(block.attributes).filter((a) => a.sensitive && !a.writeOnly).length +
        Object.values(block.blockTypes).reduce((n, nb) => n + outputs(nb.block), 0);
      const sensitiveBullet = (l: string) =>
        /^\* `[a-z0-9_]+` - \([^)]*Sensitive[^)]*\)/.test(l) && !/\([^)]*Write-only[^)]*\)/.test(l);
      let checked = 0;
      for (const [path, b] of pages) {
        const bullets = fresh.get(path)!.split('\n').filter(sensitiveBullet);
        expect(bullets.length, `${path}: a bullet per sensitive value`).to.equal(outputs(b));
        for (const bullet of bullets) expect(bullet, path).to.include(SENSITIVE_OUTPUT);
        checked += bullets.length;
      }
      expect(checked).to.be.greaterThan(0);
    });

    it(`${name}: an ephemeral resource's page uses no resource wording (replacement, import, state)`, async () => {
      const def = await loadProviderDef(name);
      const resourceWording = [
        /forces a new resource/i,
        /creates a new (one|object|key)/i,
        /after a read/i,
        /(?<!never |not )\bstored in the state\b/i,
        /terraform import/i,
        /^## Import/m,
        /tainted/i,
        /\bdestroy/i,
      ];
      for (const e of def.ephemeralResources ?? []) {
        const page = fresh.get(docPaths(def).ephemeralResources.get(e.typeName)!)!;
        const lineOf = (re: RegExp) => page.split('\n').find((l) => re.test(l));
        const found = resourceWording.filter((re) => re.test(page));
        const shown = found.map((re) => `${e.typeName}: ${re} in "${lineOf(re)}"`);
        expect(shown, shown.join('\n')).to.deep.equal([]);
      }
    });

    it(`${name}: the Import section says what an import cannot read back`, async () => {
      const def = await loadProviderDef(name);
      let checked = 0;
      for (const r of def.resources.filter((x) => x.importState)) {
        const page = fresh.get(docPaths(def).resources.get(r.typeName)!)!;
        const importSection = page.slice(page.indexOf('## Import'));
        const unread = (o: AttrOptions<unknown>) => o.providerOnly === true || o.onImport !== undefined;
        for (const path of attributePaths(r.schema.fields as Fields, unread)) {
          const said = `( is the provider's own setting.*an import sets it to|: an import sets it to)`;
          const bullet = new RegExp(`^\\* \`${path.replace(/\./g, '\\.')}\`${said}`, 'm');
          expect(importSection, `${r.typeName}.${path}`).to.match(bullet);
          checked++;
        }
      }
      expect(checked).to.be.greaterThan(0);
    });

    it(`${name}: the provider page's migration note names every value sensitive here but not upstream`, async () => {
      const def = await loadProviderDef(name);
      const index = fresh.get(docPaths(def).index)!;
      const unlikeUpstream = (o: AttrOptions<unknown>) => o.sensitiveUnlikeUpstream === true;
      const marked = [...def.resources, ...def.dataSources].flatMap((r) =>
        attributePaths(r.schema.fields as Fields, unlikeUpstream).map((p) => [r, p] as const),
      );
      expect(marked.length).to.be.greaterThan(0);
      const note = index.slice(index.indexOf('## Migrating from the upstream provider'));
      expect(note).to.include('needs `sensitive = true` added');
      for (const [r, path] of marked) {
        const line = note.split('\n').find((l) => l.startsWith(`* \`${r.typeName}\``)) ?? '';
        expect(line, `${r.typeName}.${path}`).to.include(`\`${path}\``);
      }
    });
  }

  it('sec_query: the page and its example say that a query policies use is replaced with create_before_destroy', () => {
    const page = fresh.get('sec/resources/query.md')!;
    expect(bulletOf(page, 'query_id')).to.include('`lifecycle { create_before_destroy = true }`');
    const example = page.slice(page.indexOf('## Example Usage'), page.indexOf('## Argument Reference'));
    expect(example).to.match(/lifecycle \{\n\s+create_before_destroy = true\n\s+\}/);
  });

  it("sec_agent_access_token (ephemeral): says to name a token made in the same run by the resource's id", () => {
    const page = fresh.get('sec/ephemeral-resources/agent_access_token.md')!;
    expect(bulletOf(page, 'name')).to.include('`sec_agent_access_token.<name>.id`');
  });

  it('shows the agent token: sensitive token, default and allowed values, replacement, both import forms', () => {
    const page = fresh.get('sec/resources/agent_access_token.md')!;
    expect(bulletOf(page, 'token')).to.include('(String, Sensitive)');
    const os = bulletOf(page, 'os');
    expect(os).to.include('(Optional, String)');
    expect(os).to.include('Must be one of `linux`, `windows`.');
    expect(os).to.include('Defaults to `linux`.');
    expect(os).to.include('Changing this forces a new resource.');
    expect(bulletOf(page, 'enabled')).to.include('Defaults to `true`.');
    // Required arguments come before optional ones; computed ones are attributes.
    expect(page.indexOf('* `name` - (Required')).to.be.lessThan(page.indexOf('* `description` - (Optional'));
    const attributes = page.slice(page.indexOf('## Attributes Reference'), page.indexOf('## Import'));
    expect(attributes).to.include('* `token` - ');
    expect(attributes).to.include('* `id` - ');
    expect(page).to.include('terraform import sec_agent_access_token.example');
    expect(page).to.match(/import \{\n {2}to = sec_agent_access_token\.example\n {2}id = "<[a-z_]+>"\n\}/);
    expect(page).to.include('The import id is the token `name`, or the token value itself.');
    // The example shows the name: the secret never has to be typed.
    expect(page).to.include('id = "<name>"');
  });

  it('embeds the example of each resource that has one, and the provider example', async () => {
    let embedded = 0;
    for (const name of DOC_PROVIDERS) {
      const def = await loadProviderDef(name);
      for (const r of def.resources) {
        const example = exampleText(name, r.typeName);
        if (example === undefined) continue;
        const page = fresh.get(docPaths(def).resources.get(r.typeName)!)!;
        expect(page, r.typeName).to.include(`## Example Usage\n\n\`\`\`terraform\n${example.trimEnd()}\n\`\`\``);
        embedded++;
      }
    }
    expect(embedded).to.be.greaterThan(0);
    expect(fresh.get('sec/index.md')).to.include('## Example Usage');
  });

  it('renders the same tree twice (no timestamps, stable order)', async () => {
    const again = await generateDocs(REPO_ROOT);
    expect([...again.keys()]).to.deep.equal([...fresh.keys()]);
    for (const [p, text] of fresh) expect(again.get(p), p).to.equal(text);
  });

  it('matches the committed docs/ tree (regenerate after every schema change)', () => {
    const committed = readDocsTree(join(REPO_ROOT, 'docs'));
    const diffs = compareTrees(committed, fresh);
    const report = diffs.map((d) => `  ${d.problem}: docs/${d.path}`).join('\n');
    // A short message instead of a deep-equal dump: what is off, and the command that fixes it.
    if (diffs.length > 0)
      expect.fail(`docs/ does not match the schemas; run \`${REGENERATE_COMMAND}\` and commit docs/:\n${report}`);
  });
});

function exampleText(provider: string, typeName: string): string | undefined {
  const p = join(REPO_ROOT, 'examples', provider, typeName, 'main.tf');
  return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
}

describe('docs: rendering rules on a small provider', () => {
  const keyValue = {
    key: attr.string({ required: true, description: 'Label key.' }),
    value: attr.string({ required: true, description: 'Label value.' }),
  };
  const thing = resource<any, unknown>({
    typeName: 'demo_thing',
    importIdDescription: 'the composite id `<cluster_id>/<thing_id>`',
    importState: async (id) => ({ id }),
    schema: resourceSchema(
      {
        id: attr.computedId(),
        cluster_id: attr.string({ required: true, replace: true, description: 'Cluster the thing belongs to' }),
        api_key: attr.string({ required: true, sensitive: true, description: 'Key for the thing.' }),
        site: attr.string({
          optional: true,
          default: 'com',
          validate: [validators.oneOf('com', 'eu')],
          description: 'Where data is stored.',
        }),
        enabled: attr.bool({ optional: true, default: true, description: 'Whether it runs. Default `true`.' }),
        replicas: attr.number({
          optional: true,
          default: 3,
          validate: [validators.intBetween(1, 9)],
          description: 'How many copies.',
        }),
        tags: attr.stringList({
          optional: true,
          validate: [validators.each(validators.nonEmpty())],
          description: 'Tags.',
        }),
        version: attr.string({ optional: true, computed: true, description: 'Engine version.' }),
        legacy: attr.string({ optional: true, deprecated: 'Use `site` instead.', description: 'Old setting.' }),
        status: attr.of(t.list(t.object({ phase: t.string, resources: t.list(t.object({ cpu: t.number })) })))({
          computed: true,
          description: 'Observed state.',
        }),
        configuration: block.one(
          {
            nodes: attr.number({ required: true, description: 'Node count.' }),
            label: block.list(keyValue, { description: 'Labels of the nodes.', max: 10 }),
            tls: block.one(
              { cert: attr.string({ optional: true, description: 'Certificate secret name.' }) },
              { description: 'TLS settings.' },
            ),
          },
          { required: true, description: 'How the thing is set up.' },
        ),
        filters: block.set(
          { field: attr.string({ required: true, description: 'Field.' }) },
          { description: 'Filters.', min: 1, deprecated: 'Filters are going away.' },
        ),
      },
      { description: 'A demo thing.' },
    ),
    create: async () => ({}),
    read: async () => null,
    delete: async () => {},
  });
  const noImport = resource<any, unknown>({
    typeName: 'demo_settings',
    schema: resourceSchema(
      { id: attr.computedId(), flag: attr.bool({ optional: true, description: 'A flag.' }) },
      { description: 'Settings.', deprecated: 'Gone soon.' },
    ),
    create: async () => ({}),
    read: async () => null,
    delete: async () => {},
  });
  const lookup = dataSource<any, unknown>({
    typeName: 'demo_thing',
    schema: resourceSchema(
      {
        id: attr.string({ required: true, description: 'Id of the thing.' }),
        name: attr.string({ computed: true, description: 'Its name.' }),
      },
      { description: 'Looks up a thing.' },
    ),
    read: async () => ({}),
  });
  const def = provider<any, unknown>({
    name: 'demo',
    version: '1.0.0',
    schema: resourceSchema(
      { token: attr.string({ optional: true, sensitive: true, description: 'API token.' }) },
      { description: 'The demo provider.' },
    ),
    configure: async () => ({}),
    resources: [thing, noImport],
    dataSources: [lookup],
  }) as ProviderDef<any, unknown>;
  const files: Record<string, string> = {
    'examples/demo/main.tf': 'provider "demo" {}\n',
    'examples/demo/demo_thing/main.tf': 'resource "demo_thing" "example" {\n\n\n  cluster_id = "c"\n}\n',
    'examples/demo/data_demo_thing/main.tf': 'data "demo_thing" "example" {\n  id = "x"\n}\n',
  };
  const tree = renderProviderDocs(def, { readFile: (p) => files[p] });
  const page = tree.get('demo/resources/thing.md')!;

  it('names pages after the type without the provider prefix', () => {
    expect([...tree.keys()]).to.deep.equal([
      'demo/data-sources/thing.md',
      'demo/index.md',
      'demo/resources/settings.md',
      'demo/resources/thing.md',
    ]);
  });

  it('lists required arguments first, each with type, flags and rules', () => {
    const args = page.slice(page.indexOf('## Argument Reference'), page.indexOf('## Attributes Reference'));
    const names = [...args.matchAll(/^\* `([a-z_]+)` - \((Required|Optional)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(names).to.deep.equal([
      'api_key:Required',
      'cluster_id:Required',
      'configuration:Required',
      'filters:Required',
      'enabled:Optional',
      'legacy:Optional',
      'replicas:Optional',
      'site:Optional',
      'tags:Optional',
      'version:Optional',
    ]);
    expect(bulletOf(page, 'api_key')).to.equal(
      '* `api_key` - (Required, String, Sensitive) Key for the thing. ' +
        'This value is sensitive: Terraform does not show it in plan output, but it is stored in the state. ' +
        'An `output` that shows it must set `sensitive = true`; Terraform refuses it otherwise.',
    );
    expect(bulletOf(page, 'cluster_id')).to.equal(
      '* `cluster_id` - (Required, String) Cluster the thing belongs to. Changing this forces a new resource.',
    );
    expect(bulletOf(page, 'site')).to.equal(
      '* `site` - (Optional, String) Where data is stored. Must be one of `com`, `eu`. Defaults to `com`.',
    );
    expect(bulletOf(page, 'replicas')).to.equal(
      '* `replicas` - (Optional, Number) How many copies. Must be a whole number from 1 to 9. Defaults to `3`.',
    );
    // A description that states the default already is not repeated.
    expect(bulletOf(page, 'enabled')).to.equal('* `enabled` - (Optional, Boolean) Whether it runs. Default `true`.');
    expect(bulletOf(page, 'tags')).to.equal(
      '* `tags` - (Optional, List of String) Tags. Each element must not be empty.',
    );
    expect(bulletOf(page, 'version')).to.equal(
      '* `version` - (Optional, String) Engine version. Computed when not set.',
    );
    expect(bulletOf(page, 'legacy')).to.equal(
      '* `legacy` - (Optional, String, Deprecated) Old setting. **Deprecated:** Use `site` instead.',
    );
    expect(bulletOf(page, 'configuration')).to.equal(
      '* `configuration` - (Required, Block, exactly one) How the thing is set up. See [`configuration`](#nested--configuration) below.',
    );
    expect(bulletOf(page, 'filters')).to.equal(
      '* `filters` - (Required, Block set, at least 1, Deprecated) Filters. The order of its entries does not matter. **Deprecated:** Filters are going away. See [`filters`](#nested--filters) below.',
    );
  });

  it('documents computed attributes, nested blocks and object elements in sections', () => {
    const attrs = page.slice(page.indexOf('## Attributes Reference'));
    expect(attrs).to.include('* `id` - (String) The identifier the platform assigned to this object.');
    expect(attrs).to.include('* `status` - (List of Object) Observed state. See [`status`](#nested--status) below.');
    expect(page).to.include(
      '<a id="nested--configuration"></a>\n### `configuration` block\n\nThe `configuration` block supports:\n\n* `nodes` - (Required, Number) Node count.',
    );
    expect(page).to.include(
      '* `label` - (Optional, Block list, at most 10) Labels of the nodes. See [`configuration.label`](#nested--configuration--label) below.',
    );
    expect(page).to.include('* `tls` - (Optional, Block, at most one) TLS settings.');
    expect(page).to.include(
      '### `configuration.label` block\n\nThe `label` block supports:\n\n* `key` - (Required, String) Label key.\n* `value` - (Required, String) Label value.',
    );
    // A parent's section comes before its children's.
    expect(page.indexOf('### `configuration` block')).to.be.lessThan(page.indexOf('### `configuration.label` block'));
    expect(page).to.include(
      '### `status` elements\n\nEach element of `status` has:\n\n* `phase` (String).\n* `resources` (List of Object). See [`status.resources`](#nested--status--resources) below.',
    );
    expect(page).to.include('### `status.resources` elements\n\nEach element of `resources` has:\n\n* `cpu` (Number).');
  });

  it('shows a composite import id in both import forms; says when there is no import', () => {
    expect(page).to.include('The import id is the composite id `<cluster_id>/<thing_id>`.');
    expect(page).to.include('import {\n  to = demo_thing.example\n  id = "<cluster_id>/<thing_id>"\n}');
    expect(page).to.include("terraform import demo_thing.example '<cluster_id>/<thing_id>'");
    const settings = tree.get('demo/resources/settings.md')!;
    expect(settings).to.include('This resource cannot be imported.');
    expect(settings).to.include('!> **Deprecated:**');
  });

  it('embeds examples verbatim (inside the fence nothing is squeezed)', () => {
    expect(page).to.include(
      '## Example Usage\n\n```terraform\nresource "demo_thing" "example" {\n\n\n  cluster_id = "c"\n}\n```',
    );
    expect(tree.get('demo/data-sources/thing.md')).to.include('data "demo_thing" "example"');
    expect(tree.get('demo/index.md')).to.include('```terraform\nprovider "demo" {}\n```');
  });

  it('renders the data source and the provider page', () => {
    const ds = tree.get('demo/data-sources/thing.md')!;
    expect(ds).to.include('# demo_thing (Data Source)');
    expect(bulletOf(ds, 'id')).to.equal('* `id` - (Required, String) Id of the thing.');
    expect(bulletOf(ds, 'name')).to.equal('* `name` - (String) Its name.');
    const index = tree.get('demo/index.md')!;
    expect(index).to.include('---\npage_title: "demo Provider"\ndescription: |-\n  The demo provider.\n---');
    expect(bulletOf(index, 'token')).to.include('(Optional, String, Sensitive)');
    expect(index).to.include('* [`demo_thing`](resources/thing.md)');
    expect(index).to.include('* [`demo_thing`](data-sources/thing.md)');
  });

  it('phrases validators and import placeholders', () => {
    expect(constraintSentence('one of `a`, `b`')).to.equal('Must be one of `a`, `b`.');
    expect(constraintSentence('must not be empty')).to.equal('Must not be empty.');
    expect(constraintSentence('an e-mail address')).to.equal('Must be an e-mail address.');
    expect(constraintSentence('each element an e-mail address')).to.equal('Each element must be an e-mail address.');
    expect(importPlaceholder('the integration GUID (`intg_guid`)')).to.equal('<intg_guid>');
    expect(importPlaceholder('the token value itself')).to.equal('<id>');
    expect(importPlaceholder('`<cluster_id>/<api_key_id>`')).to.equal('<cluster_id>/<api_key_id>');
  });

  it('finds a data source example in data_<type>/, or in <type>/ only when that example is a data source', () => {
    const ex = {
      'examples/p/p_a/main.tf': 'resource "p_a" "x" {}\ndata "p_a" "y" {}',
      'examples/p/p_b/main.tf': 'data "p_b" "x" {}',
      'examples/p/data_p_a/main.tf': 'data "p_a" "x" {}',
    } as Record<string, string>;
    const read = (p: string) => ex[p];
    expect(findExample('p', 'resource', 'p_a', read)?.dir).to.equal('examples/p/p_a');
    expect(findExample('p', 'data-source', 'p_a', read)?.dir).to.equal('examples/p/data_p_a');
    expect(findExample('p', 'data-source', 'p_b', read)?.dir).to.equal('examples/p/p_b');
    delete ex['examples/p/data_p_a/main.tf'];
    // The resource's example is not the data source's.
    expect(findExample('p', 'data-source', 'p_a', read)).to.equal(undefined);
  });

  it('notices a stale, a missing and a changed page', () => {
    const committed: DocTree = new Map([
      ['demo/index.md', 'old'],
      ['demo/resources/gone.md', 'x'],
    ]);
    const fresh: DocTree = new Map([
      ['demo/index.md', 'new'],
      ['demo/resources/thing.md', 'y'],
    ]);
    expect(compareTrees(committed, fresh)).to.deep.equal([
      { path: 'demo/index.md', problem: 'changed' },
      { path: 'demo/resources/gone.md', problem: 'stale' },
      { path: 'demo/resources/thing.md', problem: 'missing' },
    ]);
  });
});
