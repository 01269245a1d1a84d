/**
 * What a reference page says of one declared field beyond its description, in words shared by the
 * framework's pages (./pages.ts) and this repository's own (src/docs): a type's name, a validator as a
 * sentence, a default as written, and the rules across arguments (`argumentRules`).
 */
import type { ArgumentRule } from '../schema/argument-rules.js';
import type { CtyType } from '../schema/cty-type.js';
import { Decimal, type Value } from '../schema/value.js';

/** A type as the registry's pages write it: String, List of Number, Map of Object. */
export function typeName(t: CtyType): string {
  switch (t.kind) {
    case 'bool':
      return 'Boolean';
    case 'list':
    case 'set':
    case 'map':
      return `${upperFirst(t.kind)} of ${typeName(t.element)}`;
    default:
      return upperFirst(t.kind);
  }
}

/** Validator phrases ("one of `a`, `b`", "must not be empty", "an e-mail address") as sentences. */
export function constraintSentence(description: string): string {
  const each = /^each element (.*)$/s.exec(description);
  if (each) return `Each element ${verbPhrase(each[1]!)}.`;
  return `${upperFirst(verbPhrase(description))}.`;
}

function verbPhrase(d: string): string {
  return /^(must|may|should|cannot|can)\b/i.test(d) ? lowerFirst(d) : `must be ${d}`;
}

/** A default as a configuration writes it: `true`, `linux`, `""`, `["a"]`. */
export function formatDefault(v: Value): string {
  if (typeof v === 'string') return v === '' ? '""' : v;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (v instanceof Decimal) return v.text;
  return JSON.stringify(v, (_k, x: unknown) => (x instanceof Decimal ? Number(x.text) : x));
}

/** Whether a description already says its default ("Defaults to `true`."), so it is not said twice. */
export function statesDefault(description: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\bdefaults?\\b(?: (?:to|is))?:? \`?${escaped}\`?(?![\\w-])`, 'i').test(description);
}

/** What the rules across a type's arguments say of the argument `name`: one sentence per rule naming it. */
export function ruleSentences(rules: readonly ArgumentRule[], name: string): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    if (!rule.names.includes(name)) continue;
    const others = listed(rule.names.filter((n) => n !== name));
    const all = listed(rule.names, 'and');
    switch (rule.kind) {
      case 'conflicting':
        out.push(
          `Conflicts with ${listed(
            rule.names.filter((n) => n !== name),
            'or',
          )}.`,
        );
        break;
      case 'exactlyOneOf':
        out.push(`Exactly one of ${all} must be set.`);
        break;
      case 'atLeastOneOf':
        out.push(`At least one of ${all} must be set.`);
        break;
      case 'requiredWith':
        out.push(
          name === rule.names[0] ? `Requires ${others} to be set.` : `Required when \`${rule.names[0]}\` is set.`,
        );
        break;
    }
  }
  return out;
}

/** `a`, `b` and `c` (or `or`). */
function listed(names: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted.at(-1)}`;
}

/** A text ending in a full stop (or other closing mark), empty when there is no text. */
export function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return '';
  return /[.!?:)`]$/.test(t) ? t : `${t}.`;
}

export const upperFirst = (s: string): string => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));
export const lowerFirst = (s: string): string => (s === '' ? s : s[0]!.toLowerCase() + s.slice(1));

/** A value as HCL writes it. */
export function hcl(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(hcl).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k} = ${hcl(v)}`)
      .join(', ')} }`;
  return JSON.stringify(value);
}
