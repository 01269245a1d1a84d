/**
 * The rows of docs/api/vdb.md, "Field rules": every rule of proto/vdb's annotations as the build's
 * table holds it, and whether the plan checks it (src/resources/vdb/rules.ts) or why not
 * (src/resources/vdb/rules-unchecked.ts), or what holds it instead
 * (src/resources/vdb/rules-held.ts). `npm run docs` writes them into the page; a test fails when
 * the page holds others.
 */
import '../resources/vdb/index.js';
import { apiRuleNames, checkedApiRules } from '../resources/vdb/rules.js';
import { heldRules } from '../resources/vdb/rules-held.js';
import { NOT_CHECKED_AT_PLAN } from '../resources/vdb/rules-unchecked.js';
import { VDB_FIELD_ENUMS, VDB_FIELD_RULES, VDB_MESSAGE_RULES } from '../wire/vdb-field-rules.js';
import { renderRuleTable, type RuleRow } from './api-rules.js';

/** The name of the page's generated block. */
export const VDB_FIELD_RULES_BLOCK = 'vdb field rules';
export const VDB_API_PAGE = 'docs/api/vdb.md';

const PACKAGE = 'vdb.cloud.';

/** The block's text: the table of {@link vdbFieldRuleRows}. */
export const vdbFieldRulesBlock = (): string => renderRuleTable(vdbFieldRuleRows());

type Json = Record<string, unknown>;

/** A row per field with rules, then one per message with CEL rules across its fields; by name. */
export function vdbFieldRuleRows(): RuleRow[] {
  const names = apiRuleNames();
  const fields = Object.entries(VDB_FIELD_RULES).map(([full, rules]): RuleRow => {
    const unchecked = names.filter((name) => name.startsWith(`${full}#`) && !checkedApiRules().has(name));
    const why = unchecked.map((name) => {
      const where = heldRules().get(name)?.where;
      if (where) return `\`${name.slice(full.length + 1)}\` checked by ${where}`;
      const reason = NOT_CHECKED_AT_PLAN.find(([pattern]) => pattern.test(name))?.[1] ?? 'no reason given';
      return `not \`${name.slice(full.length + 1)}\`: ${reason}`;
    });
    const some = unchecked.length < names.filter((name) => name.startsWith(`${full}#`)).length;
    return {
      field: full.slice(PACKAGE.length),
      rules: Object.entries(rules as Json)
        .map(([kind, rule]) => ruleWords(full, kind, rule))
        .join('; '),
      checkedAtPlan:
        why.length === 0
          ? true
          : `${some ? (why.some((w) => w.startsWith('not ')) ? 'yes, but ' : 'yes; ') : ''}${why.join('; ')}`,
    };
  });
  const messages = Object.entries(VDB_MESSAGE_RULES).map(([full, rules]): RuleRow => {
    const cels = ((rules as Json).cel ?? []) as Json[];
    return {
      field: `${full.slice(PACKAGE.length)} (message)`,
      rules: cels.map((cel) => celWords(cel)).join('; '),
      checkedAtPlan: `yes: ${cels.map((cel) => heldRules().get(`${full}#${String(cel.id)}`)?.where).join('; ')}`,
    };
  });
  const byField = (a: RuleRow, b: RuleRow) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
  return [...fields, ...messages].sort(byField);
}

/** One rule as the annotation writes it: `uint32: gte 1, lte 100`, `required`, `cel \`id\`: message`. */
function ruleWords(full: string, kind: string, rule: unknown): string {
  if (kind === 'required') return 'required';
  if (kind === 'cel') return (rule as Json[]).map(celWords).join('; ');
  return `${kind}: ${settings(full, kind, rule as Json)}`;
}

function settings(full: string, kind: string, rule: Json): string {
  return Object.entries(rule)
    .map(([key, value]) => {
      if (value === true) return key;
      if (key === 'items')
        return `items (${Object.entries(value as Json)
          .map(([k, r]) => ruleWords(full, k, r))
          .join('; ')})`;
      if (Array.isArray(value)) return `${key} ${value.map((v) => valueWords(full, kind, v)).join(', ')}`;
      return `${key} ${key === 'pattern' ? `\`${String(value)}\`` : valueWords(full, kind, value)}`;
    })
    .join(', ');
}

/** A value of a rule; an enum's numbers by their names. */
function valueWords(full: string, kind: string, value: unknown): string {
  if (kind !== 'enum') return String(value);
  const name = VDB_FIELD_ENUMS[full]?.find(([, number]) => number === value)?.[0];
  return name === undefined ? String(value) : `\`${name}\``;
}

const celWords = (cel: Json) => `cel \`${String(cel.id)}\`: ${String(cel.message ?? `\`${String(cel.expression)}\``)}`;
