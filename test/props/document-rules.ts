/**
 * sec: the plan held to the API's OpenAPI document rule by rule (docs/api/sec.md, "Field rules").
 * A type's base is created once and the body its create sent is read back from the emulator, beside
 * the schema the document gives that request. Each rule of a field the body holds (a bound, an enum,
 * a format, an item count) is traced to the argument whose value the field carries (the same text,
 * number or list in the base); then that argument is given a value just past the rule, and the plan
 * must refuse it: what the document refuses never passes a plan. At a bound itself the platform takes
 * the value; where the plan refuses it, it is stricter, and the figures say why. A rule whose field no argument
 * carries as it is (the provider sets it, or sends a value made from several) is counted as not
 * reached, by kind, for the printed figures.
 */
import { argumentsOf } from './edges.js';
import { valueAt, withValue, type Plain, type Step } from './configs.js';
import type { DescribedRoute, JsonSchema } from '../../src/emulators/core/index.js';
import { OBJECT_CREATES, type EmulatorHandle } from '../acceptance/examples-workspace.js';
import type { Lifecycle, Subject, Tally } from './lifecycle.js';
import { openApiAjv } from '../support/openapi-ajv.js';

export interface DocumentTally {
  /** Rules of the fields the creates' bodies held. */
  rules: number;
  /** Of those, traced to an argument. */
  reached: number;
  /** Of those, refused at plan just past the rule. */
  refused: number;
  /** Traced rules by kind (`maxLength`, `enum`, …). */
  readonly byKind: Map<string, number>;
  /** Traced bounds whose value at the bound the plan accepts. */
  acceptedAtBound: number;
  /** Traced bounds whose value at the bound the plan refuses (stricter than the platform), by the plan's reason. */
  readonly stricter: Map<string, number>;
  readonly notReached: Map<string, number>;
  readonly findings: string[];
}

export const emptyDocumentTally = (): DocumentTally => ({
  rules: 0,
  reached: 0,
  refused: 0,
  byKind: new Map(),
  acceptedAtBound: 0,
  stricter: new Map(),
  notReached: new Map(),
  findings: [],
});

type Schema = Record<string, any>;

const ajv = openApiAjv();
/** Whether the document's schema of one field takes `value` (the value at a bound may break another rule of it). */
const takes = (schema: Schema, value: unknown) => ajv.validate(schema, value);

/** A rule of one field: the value just past it, and (for a bound) the value at it. */
interface Rule {
  readonly name: string;
  readonly past: unknown;
  readonly at?: unknown;
}

/** The rules of one field, with values made from the one the base gave it. */
function rulesOf(schema: Schema, value: unknown): Rule[] {
  const out: Rule[] = [];
  if (typeof value === 'string') {
    const padded = (n: number) => value + 'x'.repeat(Math.max(0, n - [...value].length));
    if (typeof schema.maxLength === 'number')
      out.push({
        name: `maxLength ${schema.maxLength}`,
        past: padded(schema.maxLength + 1),
        at: padded(schema.maxLength),
      });
    if (Array.isArray(schema.enum)) out.push({ name: 'enum', past: 'zz-not-one-of-them' });
    if (typeof schema.format === 'string')
      out.push({ name: `format ${schema.format}`, past: 'not of the format at all' });
  } else if (typeof value === 'number' && value !== 0 && value !== 1) {
    // 0 and 1 are the platform's flags as much as numbers: too common to trace to one argument.
    const { maximum, minimum } = schema;
    if (typeof maximum === 'number') out.push({ name: `maximum ${maximum}`, past: maximum + 1, at: maximum });
    if (typeof minimum === 'number') out.push({ name: `minimum ${minimum}`, past: minimum - 1, at: minimum });
  } else if (Array.isArray(value) && typeof schema.maxItems === 'number' && value.every((v) => typeof v === 'string')) {
    const first = String(value[0] ?? 'tf-item');
    const items = (n: number) => Array.from({ length: n }, (_, i) => `${first}-${i}`);
    out.push({ name: `maxItems ${schema.maxItems}`, past: items(schema.maxItems + 1), at: items(schema.maxItems) });
  }
  return out;
}

/** The schema that applies to `value` (a nullable field's non-null branch; an integration's data by its type). */
function resolve(schema: Schema | undefined, value: unknown): Schema | undefined {
  if (schema === undefined) return undefined;
  let out = schema;
  if (Array.isArray(out.anyOf)) out = out.anyOf.find((branch: Schema) => branch.type !== 'null') ?? out;
  if (Array.isArray(out.allOf) && value !== null && typeof value === 'object') {
    const type = (value as Record<string, unknown>).type;
    const then = out.allOf.find((entry: Schema) => entry.if?.properties?.type?.const === type)?.then;
    if (then) out = { ...out, properties: { ...out.properties, ...then.properties } };
  }
  return out;
}

/** Every field of `body` with its schema, at every depth (a list's first item stands for all). */
function* fieldsOf(schema: Schema | undefined, body: unknown, path: string): Generator<[string, Schema, unknown]> {
  const here = resolve(schema, body);
  if (here === undefined || body === null || body === undefined) return;
  if (Array.isArray(body)) {
    yield [path, here, body];
    if (body.length > 0) yield* fieldsOf(here.items, body[0], `${path}[0]`);
  } else if (typeof body === 'object') {
    for (const [key, item] of Object.entries(body)) yield* fieldsOf(here.properties?.[key], item, `${path}.${key}`);
  } else yield [path, here, body];
}

const sameList = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) && JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** The route a request went to, by its method and its path's pattern. */
function routeOf(routes: readonly DescribedRoute[], method: string, path: string): DescribedRoute | undefined {
  const bare = path.split('?')[0]!;
  return routes.find(
    (r) => r.method === method && new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare) && r.body,
  );
}

export async function holdToDocument(
  lifecycle: Lifecycle,
  emulator: EmulatorHandle,
  s: Subject,
  runs: Tally,
  tally: DocumentTally,
): Promise<void> {
  const rest = emulator.rest;
  if (!rest) return;
  const lastCreate = () =>
    [...rest.requests()].reverse().find((r) => OBJECT_CREATES.test(`${r.method} ${r.path.split('?')[0]}`));
  const before = lastCreate();
  await lifecycle.run(s, s.base, null, runs);
  const create = lastCreate();
  if (create === undefined || create === before) return;
  const route = routeOf(rest.routes(), create.method, create.path);
  if (!route?.body) return;

  const args: [Step[], unknown][] = [];
  argumentsOf(s.fields, s.base, (steps) => args.push([steps, valueAt(s.base, steps)]));
  for (const [path, schema, value] of fieldsOf(route.body as JsonSchema as Schema, create.body, 'body')) {
    for (const { name: rule, past: breaking, at } of rulesOf(schema, value)) {
      tally.rules++;
      const carriers = args.filter(([, v]) => v === value || sameList(v, value));
      if (carriers.length !== 1) {
        const why = carriers.length === 0 ? 'no argument carries it as it is' : 'several arguments hold the value';
        tally.notReached.set(why, (tally.notReached.get(why) ?? 0) + 1);
        continue;
      }
      tally.reached++;
      const kind = rule.split(' ')[0]!;
      tally.byKind.set(kind, (tally.byKind.get(kind) ?? 0) + 1);
      const [steps] = carriers[0]!;
      // At the bound the platform takes it; a plan that refuses it is stricter, on purpose or not: counted by why.
      if (at !== undefined && takes(schema, at)) {
        const atBound = await lifecycle.verdict(s.type, withValue(s.base as Plain, steps, at));
        if (atBound.accepted) tally.acceptedAtBound++;
        else {
          const why = atBound.why[0]?.replace(/ at .*$/, '') ?? 'refused';
          tally.stricter.set(why, (tally.stricter.get(why) ?? 0) + 1);
        }
      }
      const verdict = await lifecycle.verdict(s.type, withValue(s.base as Plain, steps, breaking));
      if (!verdict.accepted) tally.refused++;
      else
        tally.findings.push(
          `${s.type}.${steps.join('.')} (${route.method} ${route.path} ${path}, ${rule}): the plan accepts ` +
            `${JSON.stringify(breaking).slice(0, 60)}, which the document refuses`,
        );
    }
  }
}
