/**
 * The plan's check of an integration's name (alert channels, cloud accounts, registries): the contract's
 * `Integrations.name`, one line of visible text within the field's bound. forms.name refuses a blank
 * name itself, so the field's non-blank pattern is not derived as a second check (secRules with
 * `{ name: true }` would add it, saying the same thing less precisely).
 */
import * as forms from '../../../schema/forms.js';
import type { Validator } from '../../../schema/define.js';
import { contractField } from '../../../wire/sec-contract/index.js';
import { checkedBy, SEC_LIMITS } from '../rules.js';

export function integrationName(): Validator<string>[] {
  const spec = contractField('Integrations.name');
  checkedBy('Integrations.name', 'pattern', 'forms.name, which refuses blank names');
  return [forms.name((spec.kind === 'string' ? spec.maxLength : undefined) ?? SEC_LIMITS.characters)];
}
