import type { FieldSpec } from './body-spec.js';
import type { Handler } from './http-types.js';
import { jsonSchemaOf, type JsonSchema } from '../../wire/sec-contract/json-schema.js';

/** What a route takes, for the published description of the API (the sec emulator's OpenAPI document). */
export interface RouteDoc {
  /** The body's rules: the table the handler validates with, or a JSON Schema built from such tables. */
  readonly body?: FieldSpec | JsonSchema;
  /** The tables a JSON Schema `body` was built from, by what they describe (`data of EmailUser`). */
  readonly parts?: Readonly<Record<string, FieldSpec>>;
}

/** A route as the description shows it: `{name}` for each placeholder. */
export interface DescribedRoute {
  readonly method: string;
  readonly path: string;
  readonly body?: JsonSchema;
  /** The tables the body's schema comes from (the route's own, or its `parts`), by what they describe. */
  readonly specs?: Readonly<Record<string, FieldSpec>>;
}

interface Route {
  readonly method: string;
  readonly segments: readonly string[];
  readonly handler: Handler;
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly handler: Handler; readonly params: Record<string, string> }
  /** The path exists but not for this method: answer 405 with `allowed`. */
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

/**
 * Method + path-pattern routing. Patterns are literal segments and `:name` placeholders, e.g.
 * `/api/v2/AlertChannels/:intgGuid/test`. Literal segments win over placeholders, so
 * `POST /AgentAccessTokens/search` is not taken for a token called "search".
 */
export class Router {
  private readonly routes: Route[] = [];
  private readonly docs = new Map<string, RouteDoc>();

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method: method.toUpperCase(), segments: splitPath(pattern), handler });
    return this;
  }

  /** Says what a route takes (its body's rules), for the published description; the route may come later. */
  document(method: string, pattern: string, doc: RouteDoc): this {
    this.docs.set(routeKey(method, splitPath(pattern)), doc);
    return this;
  }

  /** Every route, in the order added, with its body's JSON Schema where it documents one. */
  describe(): DescribedRoute[] {
    const keys = new Set(this.routes.map((r) => routeKey(r.method, r.segments)));
    const stray = [...this.docs.keys()].filter((key) => !keys.has(key));
    if (stray.length > 0) throw new Error(`documented, but no such route: ${stray.join(', ')}`);
    return this.routes.map((route) => {
      const path = `/${route.segments.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`;
      const doc = this.docs.get(routeKey(route.method, route.segments));
      const body = doc?.body;
      if (body === undefined) return { method: route.method, path };
      if (typeof body.kind !== 'string')
        return { method: route.method, path, body: body as JsonSchema, specs: doc?.parts ?? {} };
      const spec = body as FieldSpec;
      return { method: route.method, path, body: jsonSchemaOf(spec), specs: { body: spec } };
    });
  }

  match(method: string, path: string): RouteMatch {
    const segments = splitPath(path);
    const candidates: Array<{ route: Route; params: Record<string, string>; literals: number }> = [];
    for (const route of this.routes) {
      const matched = matchSegments(route.segments, segments);
      if (matched) candidates.push({ route, ...matched });
    }
    if (candidates.length === 0) return { kind: 'not-found' };
    const forMethod = candidates
      .filter((candidate) => candidate.route.method === method.toUpperCase())
      .sort((a, b) => b.literals - a.literals);
    const best = forMethod[0];
    if (best) return { kind: 'found', handler: best.route.handler, params: best.params };
    // Only report methods of the most specific pattern(s), as a real server would.
    const mostLiterals = Math.max(...candidates.map((candidate) => candidate.literals));
    const allowed = candidates
      .filter((candidate) => candidate.literals === mostLiterals)
      .map((candidate) => candidate.route.method);
    return { kind: 'method-not-allowed', allowed: [...new Set(allowed)] };
  }
}

/** A route's method and pattern, placeholders unnamed (`:id` and `:guid` are one route). */
const routeKey = (method: string, segments: readonly string[]) =>
  `${method.toUpperCase()} /${segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/')}`;

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function matchSegments(
  pattern: readonly string[],
  actual: readonly string[],
): { params: Record<string, string>; literals: number } | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  let literals = 0;
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const segment = actual[i]!;
    if (expected.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      params[expected.slice(1)] = decoded;
    } else if (expected === segment) {
      literals++;
    } else {
      return undefined;
    }
  }
  return { params, literals };
}
