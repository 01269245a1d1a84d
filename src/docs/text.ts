export function anchor(path: string[]): string {
  return `nested--${path.join('--')}`;
}

export { lowerFirst, sentence, upperFirst } from '../../packages/framework/src/release/page-phrases.js';

/**
 * The Markdown text of the reference pages, apart from what they say: anchors of nested sections,
 * sentences and their first letters, lists joined with "and", the registry's front matter, the
 * example section, type-name order, and the last pass that joins a page's lines (one trailing
 * newline, no runs of blank lines outside code fences). Nothing here reads a declaration.
 */

/** "a", "a and b", "a, b and c". */
export function joinAnd(items: readonly string[], word = 'and'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)!}`;
}

export function frontMatter(title: string, description: string): string[] {
  const lines = ['---', `page_title: "${title.replaceAll('"', '\\"')}"`, 'description: |-'];
  for (const line of description.trim().split('\n')) lines.push(line === '' ? '' : `  ${line}`);
  lines.push('---', '');
  return lines;
}

export function exampleSection(example: string): string[] {
  return ['## Example Usage', '', '```terraform', example.replace(/\s+$/, ''), '```', ''];
}

export function sortByType<T extends { typeName: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.typeName < b.typeName ? -1 : a.typeName > b.typeName ? 1 : 0));
}

/** Joins lines; exactly one trailing newline, no runs of blank lines outside code fences. */
export function finish(lines: string[]): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of lines) {
    for (const l of line.split('\n')) {
      const trimmed = l.replace(/[ \t]+$/, '');
      if (trimmed.startsWith('```')) inFence = !inFence;
      if (!inFence && trimmed === '' && out.length > 0 && out[out.length - 1] === '') continue;
      out.push(trimmed);
    }
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return `${out.join('\n')}\n`;
}
