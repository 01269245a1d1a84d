/** Longest API message we copy into an error. */
const MAX_MESSAGE_LENGTH = 500;

/**
 * The human message of an error response, as the platform shapes it
 * (docs/api/sec.md, "Error messages"): the first non-empty of data.ErrorMsg, data.message, message
 * (unless "SUCCESS"), data.statusMessage; a non-JSON body is used as it is. Undefined when the body
 * says nothing.
 */
export function messageFromErrorBody(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return truncate(trimmed);
  }
  if (typeof parsed === 'string') return nonEmpty(parsed);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const body = parsed as Record<string, unknown>;
  const data = typeof body.data === 'object' && body.data !== null ? (body.data as Record<string, unknown>) : {};
  const topMessage = body.message === 'SUCCESS' ? undefined : body.message;
  for (const candidate of [data.ErrorMsg, data.message, topMessage, data.statusMessage]) {
    const message = typeof candidate === 'string' ? nonEmpty(candidate) : undefined;
    if (message) return message;
  }
  return undefined;
}

function nonEmpty(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : truncate(trimmed);
}

function truncate(value: string): string {
  return value.length > MAX_MESSAGE_LENGTH ? `${value.slice(0, MAX_MESSAGE_LENGTH)}…` : value;
}
