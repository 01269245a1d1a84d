/**
 * The reference pages the framework writes from a provider's declarations (release/pages.ts), as the
 * registry renders them from a repository's docs/: every page in tfplugindocs' layout, each argument
 * with what its declaration says (validators, default, replacement, deprecation, rules across
 * arguments), the examples taken from examples/ by tfplugindocs' file names, a resource's Import
 * section from its import id's description and identity, and a function's declared calls. Written
 * into a docs folder, a later run removes the pages it wrote whose type is gone, never a page by hand.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rules } from '../../packages/framework/src/index.js';
import { providerPages, writeProviderPages } from '../../packages/framework/src/release/index.js';
import { memoProvider, NoteStore } from './memo-provider.js';

const memo = memoProvider(new NoteStore());
const [note] = memo.resources;
/** The memo provider with rules across the note's arguments, as an author declares them. */
const withRules = {
  ...memo,
  resources: [
    { ...note!, argumentRules: [rules.conflicting('color', 'priority'), rules.requiredWith('color', 'text')] },
  ],
};

const EXAMPLES: Record<string, string> = {
  'provider/provider.tf': 'provider "memo" {\n  region = "eu"\n}\n',
  'resources/memo_note/resource.tf': 'resource "memo_note" "todo" {\n  key  = "todo"\n  text = "buy milk"\n}\n',
  'functions/slug/function.tf': 'output "slug" {\n  value = provider::memo::slug("a", "b")\n}\n',
};

describe('reference pages from the declarations', () => {
  const pages = new Map(providerPages(withRules, (path) => EXAMPLES[path]).map((p) => [p.path, p.text]));
  const page = (path: string) => {
    expect([...pages.keys()], 'the pages').to.include(path);
    return pages.get(path)!;
  };

  it('has a page for the provider, every type and every function, in the registry layout', () => {
    expect([...pages.keys()]).to.deep.equal([
      'index.md',
      'resources/note.md',
      'data-sources/note.md',
      'functions/slug.md',
    ]);
    expect(page('resources/note.md')).to.match(
      /^---\npage_title: "memo_note Resource - terraform-provider-memo"\nsubcategory: ""\ndescription: \|-\n {2}A note\.\n---\n\n# memo_note \(Resource\)\n/,
    );
    expect(page('index.md')).to.match(/^---\npage_title: "memo Provider"\ndescription: \|-\n/);
  });

  it('states each argument as its declaration does', () => {
    const text = page('resources/note.md');
    expect(text).to.include(
      '### Required\n\n- `key` (String) The key, unique in the store. Must be a lower-case slug.',
    );
    expect(text).to.include('Changing this forces a new resource.');
    expect(text).to.match(/- `priority` \(Number\) How urgent it is\. Must be [^\n]*Defaults to `1`\./);
    expect(text).to.include('- `color` (String, Deprecated) A color. **Deprecated:** Use `priority` instead.');
    expect(text).to.include('Conflicts with `priority`.');
    expect(text).to.include('Conflicts with `color`.');
    expect(text).to.include('Requires `text` to be set.');
    expect(text).to.include('Required when `color` is set.');
    expect(text).to.include('### Read-Only\n\n- `created_at` (String) When the store made it.');
    expect(text).to.include('- `link` (Block List) A link from the note.');
    expect(text).to.include('### Nested Schema for `link`\n\nRequired:\n\n- `url` (String) Where it points.');
    expect(page('index.md')).to.include('- `region` (String) Where the store is. Must be one of `eu`, `us`.');
  });

  it('takes the examples by tfplugindocs file names', () => {
    expect(page('index.md')).to.include(
      `## Example Usage\n\n\`\`\`terraform\n${EXAMPLES['provider/provider.tf']}\`\`\``,
    );
    expect(page('resources/note.md')).to.include('## Example Usage\n\n```terraform\nresource "memo_note" "todo"');
    expect(page('functions/slug.md')).to.include('## Example Usage\n\n```terraform\noutput "slug"');
    expect(page('data-sources/note.md')).to.not.include('## Example Usage');
  });

  it("ends a resource's page with its Import section: by id, by identity and with the command", () => {
    const text = page('resources/note.md');
    const section = text.slice(text.indexOf('## Import'));
    expect(section).to.include("the id is the note's key:");
    expect(section).to.include('```terraform\nimport {\n  to = memo_note.example\n  id = "..."\n}\n```');
    expect(section).to.include('identity = {\n    key = "..."\n  }');
    expect(section).to.include("#### Required\n\n- `key` (String) The note's key.");
    expect(section).to.include('```shell\nterraform import memo_note.example "..."\n```');
    // An import.sh of the examples replaces the command made up.
    const withScript = providerPages(memo, (path) =>
      path === 'resources/memo_note/import.sh' ? 'terraform import memo_note.todo todo\n' : undefined,
    ).find((p) => p.path === 'resources/note.md')!.text;
    expect(withScript).to.include('```shell\nterraform import memo_note.todo todo\n```');
  });

  it("shows a function's signature and its declared calls with what they give", () => {
    const text = page('functions/slug.md');
    expect(text).to.include('```text\nslug(parts string...) string\n```');
    expect(text).to.include('1. `parts` (Variadic, String) The parts.');
    expect(text).to.include('| `provider::memo::slug("team", "db")` | `"team-db"` |');
    expect(text).to.include('| `provider::memo::slug("team", "")` | an error at argument 2: a part may not be empty |');
  });

  it('writes into a docs folder, removing the pages it wrote for types that are gone and none written by hand', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-pages-'));
    try {
      const examples = join(dir, 'examples');
      for (const [path, text] of Object.entries(EXAMPLES)) {
        mkdirSync(join(examples, path, '..'), { recursive: true });
        writeFileSync(join(examples, path), text);
      }
      const docs = join(dir, 'docs');
      expect(writeProviderPages(withRules, docs, examples)).to.have.length(4);
      expect(readFileSync(join(docs, 'resources', 'note.md'), 'utf8')).to.equal(page('resources/note.md'));
      writeFileSync(join(docs, 'guides.md'), '# Written by hand\n');
      writeProviderPages({ ...withRules, dataSources: [] }, docs, examples);
      expect(existsSync(join(docs, 'data-sources', 'note.md')), 'the page of the data source gone').to.equal(false);
      expect(readFileSync(join(docs, 'guides.md'), 'utf8')).to.equal('# Written by hand\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
