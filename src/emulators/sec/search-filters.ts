/**
 * The filters of the platform's searches (`POST /api/v2/<family>/search`, docs/api/sec.md,
 * "Pagination and searches"), read once for every family:
 *
 *   {"filters": [{"field": <name>, "expression": "eq" | "ne", "value": <v>},
 *                {"field": <name>, "expression": "in" | "not_in", "values": [<v>, …]}]}
 *
 * Every filter must hold. Several values of one field go in one `in` filter (two `eq` filters on one
 * field would both have to hold). A value is a string, number or boolean, compared as text; a field
 * may compare without regard to case (a team member's user name). Errors name the body path.
 */
import { DEFAULT_BODY_LIMITS, checkItemCount, checkLength, invalid } from '../core/index.js';

/** A field a search can filter on: how to read it from a stored object, and how it compares. */
export interface SearchableField<R> {
  read(record: R): unknown;
  /** A user name matches in any case, as the platform's logins do. */
  readonly caseInsensitive?: boolean;
}

const EXPRESSIONS = ['eq', 'ne', 'in', 'not_in'] as const;

/** A predicate holding for the stored objects `body` searches for, or a 400 naming what is wrong. */
export function searchFilter<R>(
  body: unknown,
  fields: Readonly<Record<string, SearchableField<R>>>,
): (record: R) => boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body must be a JSON object');
  const filters = (body as { filters?: unknown }).filters ?? [];
  if (!Array.isArray(filters)) throw invalid('body.filters must be an array');
  checkItemCount(filters, DEFAULT_BODY_LIMITS.items, 'body.filters');
  const tests = filters.map((raw: unknown, index) => {
    const path = `body.filters[${index}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(`${path} must be an object`);
    const { field: name, expression, value, values } = raw as Record<string, unknown>;
    const field = typeof name === 'string' && Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) throw invalid(`${path}.field must be one of ${Object.keys(fields).join(', ')}`);
    const text = (record: R) => normal(String(field.read(record)), field);
    switch (expression) {
      case 'eq':
      case 'ne': {
        const wanted = normal(scalar(value, `${path}.value`), field);
        return expression === 'eq' ? (r: R) => text(r) === wanted : (r: R) => text(r) !== wanted;
      }
      case 'in':
      case 'not_in': {
        if (!Array.isArray(values)) throw invalid(`${path}.values must be an array for expression ${expression}`);
        checkItemCount(values, DEFAULT_BODY_LIMITS.items, `${path}.values`);
        const set = new Set(values.map((item, i) => normal(scalar(item, `${path}.values[${i}]`), field)));
        return expression === 'in' ? (r: R) => set.has(text(r)) : (r: R) => !set.has(text(r));
      }
      default:
        throw invalid(`${path}.expression must be one of ${EXPRESSIONS.join(', ')}`);
    }
  });
  return (record) => tests.every((test) => test(record));
}

const normal = (text: string, field: SearchableField<never>) => (field.caseInsensitive ? text.toLowerCase() : text);

/** A value a filter compares with, as text: a string, number or boolean of bounded length. */
function scalar(value: unknown, path: string): string {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    throw invalid(`${path} must be a string, number or boolean`);
  const text = String(value);
  checkLength(text, DEFAULT_BODY_LIMITS.characters, path);
  return text;
}
