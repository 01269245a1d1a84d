/**
 * docs/framework/api.md: the framework package's API reference, generated from the declarations the
 * package ships (packages/framework/dist, built by `npm run build`): every export of its entry
 * points with its declaration and its documentation comment, as an author's editor shows them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export const FRAMEWORK_API_PAGE = 'docs/framework/api.md';

const ENTRY_POINTS = [
  { specifier: '@keel/provider-framework', declarations: 'packages/framework/dist/index.d.ts' },
  { specifier: '@keel/provider-framework/testing', declarations: 'packages/framework/dist/testing.d.ts' },
  { specifier: '@keel/provider-framework/server', declarations: 'packages/framework/dist/server.d.ts' },
  { specifier: '@keel/provider-framework/client', declarations: 'packages/framework/dist/client.d.ts' },
  {
    specifier: '@keel/provider-framework/release',
    declarations: 'packages/framework/dist/release/index.d.ts',
  },
];

/** The page, from the built declarations. */
export function frameworkApiPage(repoRoot: string): string {
  const files = ENTRY_POINTS.map((entry) => join(repoRoot, entry.declarations));
  const program = ts.createProgram(files, { strict: true, noEmit: true, types: ['node'], skipLibCheck: true });
  const checker = program.getTypeChecker();
  const version = JSON.parse(readFileSync(join(repoRoot, 'packages/framework/package.json'), 'utf8')).version;
  const out = [
    '# API reference',
    '',
    `\`@keel/provider-framework\` ${version}: every export of its five entry points, with its declaration`,
    'and documentation, generated from the declarations the package ships (`npm run docs`; do not edit).',
    'The guide [Your first provider](first-provider.md) puts them to work.',
    '',
  ];
  for (const [at, entry] of ENTRY_POINTS.entries()) {
    const source = program.getSourceFile(files[at]!);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`no declarations at ${entry.declarations}: run npm run build`);
    out.push(`## \`${entry.specifier}\``, '');
    const moduleDoc = withoutCitations(leadingComment(source.getFullText()) ?? '');
    if (moduleDoc) out.push(moduleDoc, '');
    const exported = checker.getExportsOfModule(module).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const symbol of exported) out.push(...describe(symbol, checker));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** One export: its name, what it is, its documentation and its declaration. */
function describe(exported: ts.Symbol, checker: ts.TypeChecker): string[] {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const declaration = symbol.declarations?.[0];
  if (declaration === undefined) return [];
  const doc = withoutCitations(ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim());
  const lines = [`### ${exported.name}`, ''];
  if (doc) lines.push(doc, '');
  lines.push('```ts', withoutCitations(declarationText(declaration)), '```', '');
  return lines;
}

/**
 * The folders of this repository that comments cite ("(engine/plan/validate.ts)", "(docs/decisions.md,
 * …)"): files a contributor reads, which the package does not ship, so its reference leaves them out.
 */
const CITED_FOLDERS =
  'src|packages|docs|test|scripts|examples|engine|schema|server|wire|framework|' +
  'catalogue|checks|context|contracts|creates|' +
  'diagnostics|entry|functions|host|journal|plan|resources|providers|clients|testing|release';
const CITATION = new RegExp(
  `[ \\t]*\\((?=[^()\`]*(?<![\\w/-])(?:(?:${CITED_FOLDERS})\\/|\\.\\/[\\w-]+\\.ts|[\\w-]+\\.(?:ts|md)\\b))[^()]*\\)`,
  'g',
);

/**
 * Text without its parenthesised citations of the repository's files; punctuation a citation leaves
 * alone at the start of a comment's line joins the line before.
 */
export function withoutCitations(text: string): string {
  return text.replace(CITATION, '').replace(/\n[ \t]*\*[ \t]*(?=[.,:;])/g, '');
}

/** The declaration as the .d.ts writes it, its own comment left out (the text above shows it). */
function declarationText(node: ts.Node): string {
  if (ts.isVariableDeclaration(node)) return `const ${node.getText()};`;
  return node
    .getText()
    .replace(/^export declare /, 'declare ')
    .replace(/^export /, '');
}

/** The file's first comment, the entry point's own description, as text. */
function leadingComment(text: string): string | undefined {
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(text);
  if (!match) return undefined;
  // Lines indented in the comment are code: Markdown wants four spaces for that.
  const lines = match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, '').replace(/^ {2}(?=\S)/, '    '));
  return lines.join('\n').trim();
}
