/**
 * Provider settings that an environment variable may supply, read the same way by both providers:
 * the provider block wins, and a diagnostic about a setting names both the argument (with its
 * attribute path) and the variable, never a secret value.
 */
import { DiagnosticError } from '../../engine/diagnostics.js';
import { attrStep } from '../../schema/path.js';

/** Where a setting can be given, for messages: "`api_key` in the provider block or the VDB_API_KEY environment variable". */
export const settingSources = (attribute: string, variable: string): string => `\`${attribute}\` in the provider block or the ${variable} environment variable`;

/** A required setting that neither the provider block nor the environment gives. */
export function missingSetting(summary: string, attribute: string, variable: string, alternative = ''): DiagnosticError {
  return new DiagnosticError(summary, `Set ${settingSources(attribute, variable)}${alternative}.`, [attrStep(attribute)]);
}
