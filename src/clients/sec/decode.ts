// Loaded with the first answer to check (./http.ts, ./auth.ts), and zod with it.
import { z } from 'zod';
import { ApiError } from '@keel/provider-framework/client';

export interface ResponseFacts {
  readonly operation: string;
  readonly status: number;
  readonly requestId?: string;
}

const MAX_ISSUES_SHOWN = 3;

/**
 * An answer's schema is checked with zod's compiled parser (z.compile: one generated function for the
 * whole schema, which hands any answer it does not accept to zod's own parse, so the issues read the
 * same) once it has checked this many answers. Compiling costs ~2.5 ms per schema and then saves most
 * of the work and garbage of each parse: worth it for the hundreds of reads of one type a refresh
 * makes, not for the few of an apply.
 */
export const COMPILE_AFTER = 32;

/** Each schema's uses so far, or its compiled parser. */
const parsers = new WeakMap<z.ZodType, number | z.ZodType>();

/** The parser that checks an answer of `schema`: its own, or once used COMPILE_AFTER times, its compiled one. */
export function parserOf<S extends z.ZodType>(schema: S): S {
  const known = parsers.get(schema);
  if (typeof known === 'object') return known as S;
  const uses = (known ?? 0) + 1;
  if (uses < COMPILE_AFTER) {
    parsers.set(schema, uses);
    return schema;
  }
  const compiled = z.compile(schema);
  parsers.set(schema, compiled);
  return compiled;
}

/**
 * Parses a response body and checks it against `schema` before anything uses it. A body that is
 * not JSON or does not have the expected shape is a 'malformed_response' naming the operation and
 * the offending paths (never the values, which may be secrets).
 */
export function decodeBody<S extends z.ZodType>(text: string, schema: S, facts: ResponseFacts): z.output<S> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed(text.trim() === '' ? 'the response body is empty' : 'the response body is not JSON', facts);
  }
  const result = parserOf(schema).safeParse(parsed);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, MAX_ISSUES_SHOWN)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`);
  const more = result.error.issues.length - issues.length;
  throw malformed(
    `the response does not have the expected shape: ${issues.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`,
    facts,
  );
}

function malformed(detail: string, facts: ResponseFacts): ApiError {
  return new ApiError(detail, {
    code: 'malformed_response',
    operation: facts.operation,
    status: facts.status,
    ...(facts.requestId === undefined ? {} : { requestId: facts.requestId }),
  });
}
