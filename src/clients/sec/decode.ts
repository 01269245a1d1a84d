import type { z } from 'zod';
import { ApiError } from '../../wire/api-error.js';

export interface ResponseFacts {
  readonly operation: string;
  readonly status: number;
  readonly requestId?: string;
}

const MAX_ISSUES_SHOWN = 3;

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
  const result = schema.safeParse(parsed);
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
