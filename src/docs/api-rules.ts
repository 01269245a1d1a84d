/**
 * A provider's API field rules as a table in a hand-written page: the rows come from the contract (the
 * .proto annotations for vdb), and the page holds them between marker comments that `npm run docs`
 * rewrites and a test compares, so that a rule changed in the contract changes the page. Generic:
 * any page, any provider's rows.
 *
 *   <!-- generated: <name> -->
 *   …the table…
 *   <!-- end generated -->
 */

/** One field's rules, in the page's words. */
export interface RuleRow {
  /** The field, as the API names it (`cluster.v1.Cluster.name`). */
  readonly field: string;
  /** Its rules, Markdown (`string: max_len 63; required`). */
  readonly rules: string;
  /** True where the plan checks every rule of the field; otherwise Markdown saying which it does not, and why. */
  readonly checkedAtPlan: true | string;
}

const startMarker = (name: string) => `<!-- generated: ${name} -->`;
const END_MARKER = '<!-- end generated -->';

/** A table of `rows`, in the order given, ending with a newline. */
export function renderRuleTable(rows: readonly RuleRow[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const checked = (row: RuleRow) => (row.checkedAtPlan === true ? 'yes' : cell(row.checkedAtPlan));
  const lines = rows.map((row) => `| \`${cell(row.field)}\` | ${cell(row.rules)} | ${checked(row)} |`);
  return ['| Field | Rules | Checked at plan |', '|---|---|---|', ...lines, ''].join('\n');
}

/** The text between the markers of block `name` in `markdown` (the block must be there, once). */
export function markedBlock(markdown: string, name: string): string {
  const [start, end] = blockBounds(markdown, name);
  return markdown.slice(start, end);
}

/** `markdown` with the block `name` holding `text` (a blank line either side of it, as Markdown needs). */
export function replaceMarkedBlock(markdown: string, name: string, text: string): string {
  const [start, end] = blockBounds(markdown, name);
  return `${markdown.slice(0, start)}\n${text.replace(/\n*$/, '\n')}\n${markdown.slice(end)}`;
}

function blockBounds(markdown: string, name: string): [number, number] {
  const marker = startMarker(name);
  const at = markdown.indexOf(marker);
  if (at < 0 || markdown.indexOf(marker, at + 1) >= 0)
    throw new Error(`the page must hold the marker ${marker} once, then ${END_MARKER}`);
  const start = at + marker.length;
  const end = markdown.indexOf(END_MARKER, start);
  if (end < 0) throw new Error(`${marker} has no ${END_MARKER} after it`);
  return [start, end];
}
