/**
 * The one error type the API clients throw. `code` is stable and is what callers branch on;
 * the message is for humans and never contains secrets (tokens, keys, request bodies). It lies
 * beneath both the clients that throw it and the engine that branches on its code.
 */
export type ApiErrorCode =
  | 'not_found'
  | 'conflict'
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'cancelled'
  /**
   * A request that changes something (a create) went out and its answer was lost (the connection
   * dropped, a gateway answered 502/504, the deadline passed, gRPC UNAVAILABLE/DEADLINE_EXCEEDED):
   * the change may or may not have been made. Repeating it blindly could make a duplicate.
   */
  | 'outcome_unknown'
  | 'malformed_response'
  | 'unknown';

export interface ApiErrorDetails {
  readonly code: ApiErrorCode;
  /** A template such as "GET /api/v2/AlertChannels/{intgGuid}": never an id or a secret. */
  readonly operation: string;
  readonly status?: number;
  /** The request id, or the ids of several attempts joined by `requestIdsOf`. */
  readonly requestId?: string;
  readonly cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly operation: string;
  readonly status?: number;
  readonly requestId?: string;
  /** What went wrong, as the platform said it, without the operation and status the message adds. */
  readonly detail: string;

  /** @param detail what went wrong, already free of secrets; the operation and status are added. */
  constructor(detail: string, details: ApiErrorDetails) {
    super(formatMessage(detail, details), details.cause === undefined ? undefined : { cause: details.cause });
    this.detail = detail;
    this.code = details.code;
    this.operation = details.operation;
    if (details.status !== undefined) this.status = details.status;
    if (details.requestId !== undefined) this.requestId = details.requestId;
  }
}

export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** The message tail of every 'outcome_unknown' error. */
export const OUTCOME_UNKNOWN_NOTE =
  'the request was sent but its answer was lost, so it may or may not have taken effect';

/** The code an HTTP error status maps to. */
export function codeForStatus(status: number): ApiErrorCode {
  switch (status) {
    case 400:
    case 422:
      return 'invalid';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 429:
      return 'rate_limited';
    case 408:
      return 'timeout';
    default:
      return status >= 500 && status <= 599 ? 'unavailable' : 'unknown';
  }
}

/**
 * The request ids of a call's attempts (a retried call has several), each once, in the order they
 * came, joined with ", " as every message of both clients shows them.
 */
export function requestIdsOf(ids: readonly (string | undefined)[]): { requestId?: string } {
  const unique = [...new Set(ids.filter((id): id is string => id !== undefined && id !== ''))];
  return unique.length === 0 ? {} : { requestId: unique.join(REQUEST_ID_SEPARATOR) };
}

const REQUEST_ID_SEPARATOR = ', ';

function formatMessage(detail: string, details: ApiErrorDetails): string {
  const several = details.requestId?.includes(REQUEST_ID_SEPARATOR) === true;
  const facts = [
    details.status === undefined ? undefined : `HTTP ${details.status}`,
    details.requestId === undefined ? undefined : `request ${several ? 'ids' : 'id'} ${details.requestId}`,
  ].filter((fact) => fact !== undefined);
  return `${details.operation}: ${detail}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`;
}
