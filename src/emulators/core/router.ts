import type { Handler } from './http-types.js';

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

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method: method.toUpperCase(), segments: splitPath(pattern), handler });
    return this;
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
