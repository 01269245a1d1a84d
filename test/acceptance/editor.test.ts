/**
 * The editor, as users meet the providers first (README, "Editors"): HashiCorp's terraform-ls v0.39.1,
 * what VS Code's Terraform extension runs, over a workspace that requires both providers, installed by
 * `terraform init` from a mirror of this checkout (./local-mirror.ts) so that the server finds the
 * lock file and `.terraform/` it needs before it asks Terraform 1.15.5 for the schemas. Driven as an
 * editor drives it (./language-server.ts), it must give, from the schemas the executables serve:
 *
 * - every resource, data source and ephemeral resource type name in completion, with its description;
 * - every settable attribute and nested block of every type and of both provider blocks, at every depth,
 *   in completion with its description, and in hover;
 * - diagnostics for a missing required argument and an unknown one;
 * - every `provider::` function in completion, with its signature and parameters in signature help;
 * - every deprecation with its message, in hover and in the warning it gives where it is used.
 *
 * The counts are printed, and what terraform-ls shows for each deprecation.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import type { FunctionDef } from '../../packages/framework/src/engine/functions/index.js';
import type { SchemaBlock } from '../../packages/framework/src/schema/block.js';
import { deprecationNote } from '../../packages/framework/src/schema/define.js';
import sec from '../../src/resources/sec/index.js';
import vdb from '../../src/resources/vdb/index.js';
import { documentationOf, LanguageServer, type Position } from './language-server.js';
import { localMirror } from './local-mirror.js';
import { requireRealClient } from './real-clients.js';
import { requireTerraform } from './terraform.js';

const PROVIDERS = [sec, vdb] as ProviderDef<any, any>[];

/** A type as a configuration writes it: `resource "<type>" "<name>" { … }`. */
interface TypeBlock {
  readonly keyword: 'resource' | 'data' | 'ephemeral' | 'provider';
  readonly type: string;
  readonly block: SchemaBlock;
}

function typesOf(def: ProviderDef<any, any>): TypeBlock[] {
  return [
    { keyword: 'provider', type: def.name, block: def.schema.block },
    ...def.resources.map((r) => ({ keyword: 'resource' as const, type: r.typeName, block: r.schema.block })),
    ...def.dataSources.map((d) => ({ keyword: 'data' as const, type: d.typeName, block: d.schema.block })),
    ...(def.ephemeralResources ?? []).map((e) => ({
      keyword: 'ephemeral' as const,
      type: e.typeName,
      block: e.schema.block,
    })),
  ];
}

const opening = (t: TypeBlock, name: string) =>
  t.keyword === 'provider' ? `provider "${t.type}" {` : `${t.keyword} "${t.type}" "${name}" {`;

/** What a configuration can set in a block: its required or optional attributes, and its nested blocks. */
function settable(block: SchemaBlock): { name: string; description: string; nested?: SchemaBlock }[] {
  return [
    ...Object.values(block.attributes)
      .filter((a) => a.required || a.optional)
      .map((a) => ({ name: a.name, description: a.description })),
    ...Object.values(block.blockTypes).map((nb) => ({
      name: nb.typeName,
      description: nb.block.description,
      nested: nb.block,
    })),
  ];
}

/**
 * Letters and digits only: completion shows descriptions as plain text, markdown's marks dropped and
 * what looks like an HTML tag (`<account>`, even in a code span) with them.
 */
const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[a-z][^>]*>/g, '')
    .replace(/[^a-z0-9]/g, '');

interface Tally {
  typeNames: number;
  completed: number;
  hovered: number;
  blocks: number;
  functions: number;
  deprecations: string[];
}

describe('acceptance: terraform-ls, the editor’s language server, over both providers', function () {
  this.timeout(600_000);
  let dir: string;
  let root: string;
  let ls: LanguageServer;
  let files = 0;
  const tallies = new Map<string, Tally>(PROVIDERS.map((p) => [p.name, emptyTally()]));

  function emptyTally(): Tally {
    return { typeNames: 0, completed: 0, hovered: 0, blocks: 0, functions: 0, deprecations: [] };
  }

  /** A new file of the workspace, opened as an editor opens it. */
  async function file(text: string): Promise<{ path: string; lines: string[] }> {
    const path = join(root, `edit-${++files}.tf`);
    await ls.show(path, text);
    return { path, lines: text.split('\n') };
  }

  before(async function () {
    const server = requireRealClient(this, 'terraform-ls');
    const terraform = requireTerraform(this);
    dir = mkdtempSync(join(tmpdir(), 'keel-editor-'));
    root = join(dir, 'workspace');
    mkdirSync(root);
    const cliConfig = join(dir, 'terraformrc');
    mkdirSync(join(dir, 'mirror'));
    writeFileSync(cliConfig, localMirror(join(dir, 'mirror')));
    writeFileSync(
      join(root, 'main.tf'),
      'terraform {\n  required_providers {\n    sec = { source = "keel/sec" }\n    vdb = { source = "keel/vdb" }\n  }\n}\n',
    );
    const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
    execFileSync(terraform, ['init', '-no-color'], { cwd: root, env, stdio: 'pipe' });
    ls = await LanguageServer.start(server, root, terraform, env);
    // The server indexes the workspace and asks Terraform for the schemas in the background.
    const probe = await file('resource "" "probe" {\n}\n');
    const deadline = Date.now() + 120_000;
    for (;;) {
      const labels = (await ls.completion(probe.path, { line: 0, character: 10 })).map((i) => i.label);
      if (PROVIDERS.every((p) => p.resources.every((r) => labels.includes(r.typeName)))) break;
      if (Date.now() > deadline)
        throw new Error(`terraform-ls loaded no provider schema in 120 s; its log:\n${ls.log.join('').slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  after(async () => {
    const lines = PROVIDERS.map((p) => {
      const t = tallies.get(p.name)!;
      return (
        `  terraform-ls over ${p.name}: ${t.typeNames} type names completed; ${t.completed} settable attributes and ` +
        `nested blocks completed with their descriptions in ${t.blocks} blocks, ${t.hovered} hovered; ` +
        `${t.functions} functions completed with their signatures; ${t.deprecations.length} deprecations shown\n` +
        t.deprecations.map((d) => `    ${d}`).join('\n')
      );
    });
    console.log(lines.join('\n'));
    await ls?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const def of PROVIDERS) {
    const tally = () => tallies.get(def.name)!;

    it(`${def.name}: completes every type name, with its description`, async () => {
      const kinds = [
        ['resource', def.resources.map((r) => [r.typeName, r.schema.block.description])],
        ['data', def.dataSources.map((d) => [d.typeName, d.schema.block.description])],
        ['ephemeral', (def.ephemeralResources ?? []).map((e) => [e.typeName, e.schema.block.description])],
      ] as const;
      for (const [keyword, types] of kinds) {
        const f = await file(`${keyword} "" "x" {\n}\n`);
        const items = await ls.completion(f.path, { line: 0, character: keyword.length + 2 });
        for (const [type, description] of types) {
          const item = items.find((i) => i.label === type);
          expect(item, `${keyword} type ${type} in completion`).to.not.equal(undefined);
          expect(plain(documentationOf(item!)), `${keyword} ${type}: its description`).to.include(
            plain(description).slice(0, 40),
          );
          tally().typeNames++;
        }
      }
    });

    it(`${def.name}: completes and hovers every settable attribute and nested block of every type, at every depth`, async () => {
      for (const t of typesOf(def)) {
        // Completion: one configuration block per block path, empty but for the path, the cursor inside.
        const paths: { path: string[]; block: SchemaBlock }[] = [];
        const walk = (block: SchemaBlock, path: string[]) => {
          paths.push({ path, block });
          for (const nb of Object.values(block.blockTypes)) walk(nb.block, [...path, nb.typeName]);
        };
        walk(t.block, []);
        const text: string[] = [];
        const cursors: { at: Position; path: string[]; block: SchemaBlock }[] = [];
        paths.forEach(({ path, block }, i) => {
          text.push(opening(t, `c${i}`));
          path.forEach((name, depth) => text.push(`${'  '.repeat(depth + 1)}${name} {`));
          const indent = '  '.repeat(path.length + 1);
          cursors.push({ at: { line: text.length, character: indent.length }, path, block });
          text.push(indent);
          for (let depth = path.length - 1; depth >= 0; depth--) text.push(`${'  '.repeat(depth + 1)}}`);
          text.push('}');
        });
        const completions = await file(`${text.join('\n')}\n`);
        for (const { at, path, block } of cursors) {
          const items = await ls.completion(completions.path, at);
          for (const s of settable(block)) {
            const where = `${t.keyword} ${t.type}${path.map((p) => `.${p}`).join('')}.${s.name}`;
            const item = items.find((i) => i.label === s.name);
            expect(item, `${where} in completion`).to.not.equal(undefined);
            if (s.description !== '')
              expect(plain(documentationOf(item!)), `${where}: its description`).to.include(
                plain(s.description).slice(0, 40),
              );
            tally().completed++;
          }
          tally().blocks++;
        }
        // Hover: one block with everything set, each name hovered.
        const lines: string[] = [opening(t, 'h')];
        const hovers: { at: Position; where: string; description: string }[] = [];
        const fill = (block: SchemaBlock, depth: number, path: string) => {
          const indent = '  '.repeat(depth);
          for (const s of settable(block)) {
            hovers.push({
              at: { line: lines.length, character: indent.length + 1 },
              where: `${path}.${s.name}`,
              description: s.description,
            });
            if (!s.nested) lines.push(`${indent}${s.name} = null`);
            else {
              lines.push(`${indent}${s.name} {`);
              fill(s.nested, depth + 1, `${path}.${s.name}`);
              lines.push(`${indent}}`);
            }
          }
        };
        fill(t.block, 1, `${t.keyword} ${t.type}`);
        lines.push('}');
        const hovered = await file(`${lines.join('\n')}\n`);
        for (const h of hovers) {
          const text = await ls.hover(hovered.path, h.at);
          expect(text, `${h.where}: hover`).to.be.a('string');
          expect(text, `${h.where}: hover shows its description`).to.include(h.description);
          tally().hovered++;
        }
      }
    });

    it(`${def.name}: diagnoses a missing required argument and an unknown one`, async () => {
      const r = def.resources.find((x) => Object.values(x.schema.block.attributes).some((a) => a.required))!;
      const required = Object.values(r.schema.block.attributes).find((a) => a.required)!.name;
      const f = await file(`resource "${r.typeName}" "d" {\n  bogus_argument = 1\n}\n`);
      const diagnostics = await ls.diagnostics(
        f.path,
        (ds) => ds.some((d) => d.message.includes('bogus_argument')),
        60_000,
      );
      const messages = diagnostics.map((d) => d.message);
      expect(messages).to.include(
        `Required attribute "${required}" not specified: An attribute named "${required}" is required here`,
      );
      expect(messages.join('\n')).to.match(
        /Unexpected attribute: An attribute named "bogus_argument" is not expected here/,
      );
    });

    it(`${def.name}: completes every provider:: function and gives its signature`, async () => {
      const functions = (def.functions ?? []) as FunctionDef[];
      expect(functions.length).to.be.above(0);
      const prefix = `provider::${def.name}::`;
      const listed = await file(`output "f" {\n  value = ${prefix}\n}\n`);
      const items = await ls.completion(listed.path, { line: 1, character: 10 + prefix.length });
      for (const fn of functions) {
        const item = items.find((i) => i.label === `${prefix}${fn.name}`);
        expect(item, `${prefix}${fn.name} in completion`).to.not.equal(undefined);
        expect(plain(documentationOf(item!))).to.include(plain(fn.description).slice(0, 40));
        const call = await file(`output "s" {\n  value = ${prefix}${fn.name}()\n}\n`);
        const help = await ls.signatureHelp(call.path, { line: 1, character: 10 + prefix.length + fn.name.length + 1 });
        const signature = help?.signatures[0];
        expect(signature?.label, `${fn.name}: signature`).to.include(`${prefix}${fn.name}(`);
        for (const p of fn.parameters) expect(signature!.label).to.include(p.name);
        expect(signature!.parameters?.length ?? 0).to.equal(fn.parameters.length + (fn.variadic ? 1 : 0));
        tally().functions++;
      }
    });

    it(`${def.name}: shows every deprecation with its message, in hover and where it is used`, async () => {
      const found: { where: string; message: string; text: string; at: Position; path: string }[] = [];
      for (const t of typesOf(def)) {
        if (t.keyword !== 'provider' && t.block.deprecationMessage) {
          const f = await file(`${opening(t, 'dep')}\n}\n`);
          const at = { line: 0, character: t.keyword.length + 3 };
          found.push({
            where: `${t.keyword} ${t.type}`,
            message: t.block.deprecationMessage,
            text: '',
            at,
            path: f.path,
          });
        }
        // Each deprecated attribute or block, set where it is (computed ones too: hover reads the schema).
        const visit = async (block: SchemaBlock, chain: string[]) => {
          const items = [
            ...Object.values(block.attributes).map((a) => ({ name: a.name, message: a.deprecationMessage })),
            ...Object.values(block.blockTypes).map((nb) => ({
              name: nb.typeName,
              message: nb.block.deprecationMessage,
            })),
          ];
          for (const item of items.filter((i) => i.message)) {
            const lines = [opening(t, 'dep'), ...chain.map((c, d) => `${'  '.repeat(d + 1)}${c} {`)];
            const indent = '  '.repeat(chain.length + 1);
            const nested = Object.hasOwn(block.blockTypes, item.name);
            lines.push(nested ? `${indent}${item.name} {` : `${indent}${item.name} = null`);
            const line = lines.length - 1;
            if (nested) lines.push(`${indent}}`);
            for (let d = chain.length - 1; d >= 0; d--) lines.push(`${'  '.repeat(d + 1)}}`);
            lines.push('}');
            const f = await file(`${lines.join('\n')}\n`);
            const where = `${t.keyword} ${t.type}.${[...chain, item.name].join('.')}`;
            found.push({
              where,
              message: item.message!,
              text: '',
              at: { line, character: indent.length + 1 },
              path: f.path,
            });
          }
          for (const nb of Object.values(block.blockTypes)) await visit(nb.block, [...chain, nb.typeName]);
        };
        await visit(t.block, []);
      }
      for (const d of found) {
        const hover = await ls.hover(d.path, d.at);
        expect(hover, `${d.where}: hover`).to.include(deprecationNote(d.message));
        // Where a deprecated argument or block is used, the server warns with the message.
        if (!d.where.includes('.')) tally().deprecations.push(`${d.where}: hover "${lastParagraph(hover!)}"`);
        else {
          const name = d.where.split('.').at(-1)!;
          const diagnostics = await ls.diagnostics(
            d.path,
            (ds) => ds.some((x) => x.message.startsWith(`"${name}" is deprecated`)),
            60_000,
          );
          const warning = diagnostics.find((x) => x.message.startsWith(`"${name}" is deprecated`))!;
          expect(warning.message).to.include(deprecationNote(d.message).replace(/"/g, '\\"'));
          tally().deprecations.push(`${d.where}: warning "${warning.message}"`);
        }
      }
      const declared = countDeprecations(def);
      expect(found.length, `${def.name}: every deprecation found`).to.equal(declared);
    });
  }
});

function lastParagraph(text: string): string {
  return text.trim().split('\n\n').at(-1)!.replace(/\s+/g, ' ');
}

/** Every deprecated type, block and attribute the provider declares. */
function countDeprecations(def: ProviderDef<any, any>): number {
  let n = 0;
  const walk = (block: SchemaBlock) => {
    for (const a of Object.values(block.attributes)) if (a.deprecated) n++;
    for (const nb of Object.values(block.blockTypes)) {
      if (nb.block.deprecated) n++;
      walk(nb.block);
    }
  };
  for (const t of typesOf(def)) {
    if (t.keyword !== 'provider' && t.block.deprecated) n++;
    walk(t.block);
  }
  return n;
}
