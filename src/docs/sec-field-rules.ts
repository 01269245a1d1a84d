/**
 * The rows of docs/api/sec.md's table of field rules, from sec's contract (src/wire/sec-contract): every
 * field with a rule of its own, its rules in words, and whether the plan checks them (the attributes'
 * derived checks, src/resources/sec/rules.ts) or why not (rules-unchecked.ts).
 */
import '../resources/sec/index.js';
import { checkedSecRules, rulesOfSpec } from '../resources/sec/rules.js';
import { reasonNotChecked } from '../resources/sec/rules-unchecked.js';
import { contractFields, type FieldSpec, type StringFormat } from '../wire/sec-contract/index.js';
import { renderRuleTable, type RuleRow } from './api-rules.js';

/** The name of the page's generated block. */
export const SEC_FIELD_RULES_BLOCK = 'sec field rules';
export const SEC_API_PAGE = 'docs/api/sec.md';

/** The block's text: the table of {@link secFieldRuleRows}. */
export const secFieldRulesBlock = (): string => renderRuleTable(secFieldRuleRows());

const FORMATS: Readonly<Record<StringFormat, string>> = {
  email: 'an e-mail address',
  url: 'an http or https URL',
  'https-url': 'an https URL',
  'json-data-url': 'a data URL of a JSON document',
  'pem-private-key': 'a PEM-encoded private key',
};

export function secFieldRuleRows(): RuleRow[] {
  const checked = checkedSecRules();
  return contractFields()
    .filter(({ spec }) => rulesOfSpec(spec).length > 0)
    .map(({ name, spec }) => {
      const unchecked = rulesOfSpec(spec)
        .map((kind) => `${name}#${kind}`)
        .filter((rule) => !checked.has(rule));
      const reasons = [...new Set(unchecked.map((rule) => reasonNotChecked(rule) ?? 'no reason given'))];
      return {
        field: name,
        rules: words(spec).join('; '),
        checkedAtPlan: unchecked.length === 0 ? true : `no: ${reasons.join('; ')}`,
      } satisfies RuleRow;
    });
}

/** The rules of one field, in the page's words. */
function words(spec: FieldSpec): string[] {
  return rulesOfSpec(spec).map((kind) => {
    switch (kind) {
      case 'range': {
        const { min, max } = spec as { min?: number; max?: number };
        return min !== undefined && max !== undefined
          ? `${min} to ${max}`
          : min !== undefined
            ? `at least ${min}`
            : `at most ${max}`;
      }
      case 'maxLength':
        return `at most ${(spec as { maxLength: number }).maxLength} characters`;
      case 'oneOf':
        return `one of ${(spec as { oneOf: readonly string[] }).oneOf.map((v) => `\`${v}\``).join(', ')}`;
      case 'format':
        return FORMATS[(spec as { format: StringFormat }).format];
      case 'pattern': {
        const { pattern, patternRule } = spec as { pattern: string; patternRule?: string };
        return patternRule ?? `matching \`/${pattern}/\``;
      }
      case 'minItems': {
        const { minItems } = spec as { minItems: number };
        return `at least ${minItems} item${minItems === 1 ? '' : 's'}`;
      }
      case 'maxItems':
        return `at most ${(spec as { maxItems: number }).maxItems} items`;
      case 'check':
        return `across its fields: ${(spec as { checkRule?: string }).checkRule ?? 'a rule in code'}`;
    }
  });
}
