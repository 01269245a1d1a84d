/**
 * The docs of identities and list resources: an identity section on every resource page (with the
 * identity form of the import block where the type can be imported), a page per list resource with
 * its filters and its example, and examples under `examples/<provider>/query/` that name only list
 * resources and filters that exist.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProviderDef } from '../../src/providers/describe.js';
import { generateDocs, DOC_PROVIDERS } from '../../src/docs/generate.js';
import { docPaths, type DocTree } from '../../src/docs/render.js';
import type { Fields } from '../../packages/framework/src/schema/define.js';
import { failOnProblems, tableProblems } from '../support/type-tables.js';

const REPO_ROOT = process.cwd();

describe('docs: identities and list resources', () => {
  let fresh: DocTree;
  before(async () => {
    fresh = await generateDocs(REPO_ROOT);
  });

  for (const name of DOC_PROVIDERS) {
    it(`${name}: every resource page has an identity section naming each identity attribute and its import role`, async () => {
      const def = await loadProviderDef(name);
      for (const r of def.resources) {
        const page = fresh.get(docPaths(def).resources.get(r.typeName)!)!;
        const section = page.slice(page.indexOf('## Identity'), page.indexOf('## Import'));
        expect(section, r.typeName).to.include('Terraform 1.12 and later');
        for (const [attribute, a] of Object.entries(r.identity!.attributes)) {
          expect(section, `${r.typeName}.${attribute}`).to.include(
            r.importState
              ? `* \`${attribute}\` - (String, ${a.forImport} for import) `
              : `* \`${attribute}\` - (String) `,
          );
        }
        if (r.importState)
          expect(page, r.typeName)
            .to.include('With its identity (Terraform 1.12 and later):')
            .and.include('  identity = {');
        else expect(page, r.typeName).to.include('This resource cannot be imported.').and.not.include('  identity = {');
        if (r.list) expect(section, r.typeName).to.include(`(../list-resources/`);
      }
    });

    it(`${name}: a page per list resource, linked from the index, with its filters, results and example`, async () => {
      const def = await loadProviderDef(name);
      const paths = docPaths(def);
      const index = fresh.get(paths.index)!;
      for (const r of def.resources.filter((x) => x.list)) {
        const page = fresh.get(paths.listResources.get(r.typeName)!)!;
        expect(page, r.typeName)
          .to.include(`# ${r.typeName} (List Resource)`)
          .and.include('Terraform 1.14 or later')
          .and.include('## Results');
        expect(page, r.typeName).to.include(
          `## Example Usage\n\n\`\`\`terraform\n${readFileSync(join(REPO_ROOT, 'examples', name, 'query', `${r.typeName}.tfquery.hcl`), 'utf8').trimEnd()}\n\`\`\``,
        );
        for (const filter of Object.keys(r.list!.schema.fields))
          expect(page, `${r.typeName} filter ${filter}`).to.include(`* \`${filter}\` - (`);
        expect(index).to.include(`[\`${r.typeName}\`](list-resources/`);
      }
    });

    it(`${name}: the query examples name list resources and filters that exist, one file per list resource`, async () => {
      const def = await loadProviderDef(name);
      const dir = join(REPO_ROOT, 'examples', name, 'query');
      const files = readdirSync(dir).filter((f) => f.endsWith('.tfquery.hcl'));
      failOnProblems(
        `the ${name} list resources and their query examples`,
        tableProblems(
          {
            what: `${name} list resource`,
            where: `examples/${name}/query/`,
            noun: 'file',
            entry: (type) =>
              `examples/${name}/query/${type}.tfquery.hcl holding one block, ` +
              `list "${type}" "<name>" { provider = ${name} … }, with its required filters in \`config { … }\``,
          },
          def.resources.filter((r) => r.list).map((r) => r.typeName),
          files.map((f) => f.replace('.tfquery.hcl', '')),
        ),
      );
      for (const file of files) {
        const text = readFileSync(join(dir, file), 'utf8');
        const type = file.replace('.tfquery.hcl', '');
        const blocks = [...text.matchAll(/^list "([a-z0-9_]+)" "([a-z0-9_]+)" \{$/gm)];
        expect(
          blocks.map((m) => m[1]),
          file,
        ).to.deep.equal([type]);
        expect(text, file).to.include(`  provider = ${name}\n`);
        const config = /^ {2}config \{\n((?: {4}.*\n)*) {2}\}$/m.exec(text)?.[1] ?? '';
        const used = [...config.matchAll(/^ {4}([a-z0-9_]+)\s*=/gm)].map((m) => m[1]);
        const filters = def.resources.find((r) => r.typeName === type)!.list!.schema.fields as Fields;
        for (const f of used) expect(Object.keys(filters), `${file}: filter ${f}`).to.include(f);
        const required = Object.entries(filters)
          .filter(([, f]) => f.kind === 'attr' && f.options.required)
          .map(([n]) => n);
        for (const f of required) expect(used, `${file}: required filter ${f}`).to.include(f);
      }
    });
  }
});
