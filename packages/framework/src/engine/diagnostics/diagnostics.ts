/**
 * Diagnostics are the only way a failure leaves the engine: severity, a short summary, an actionable
 * detail and, where it concerns one attribute, its path. Nothing thrown ever reaches Terraform raw.
 */
import type { AttributePath } from '../../schema/path.js';
import { ApiError } from '../../wire/api-error.js';

export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly summary: string;
  readonly detail: string;
  readonly path?: AttributePath;
}

export class Diagnostics {
  readonly items: Diagnostic[] = [];
  error(summary: string, detail = '', path?: AttributePath): this {
    this.items.push({ severity: 'error', summary, detail, ...(path ? { path } : {}) });
    return this;
  }
  warning(summary: string, detail = '', path?: AttributePath): this {
    this.items.push({ severity: 'warning', summary, detail, ...(path ? { path } : {}) });
    return this;
  }
  append(other: Iterable<Diagnostic>): this {
    for (const d of other) this.items.push(d);
    return this;
  }
  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}

/**
 * Thrown by resource code to fail with a precise diagnostic (for example a plan-time rule with a path).
 */
export class DiagnosticError extends Error {
  constructor(
    readonly summary: string,
    readonly detail: string,
    readonly path?: AttributePath,
  ) {
    super(`${summary}: ${detail}`);
  }
}

/**
 * Turns anything thrown inside an operation into one error diagnostic. API errors carry their own
 * safe message (clients never put secrets in them); anything else is an internal error whose detail
 * is the message only, never a stack.
 */
export function diagnosticFromError(summary: string, err: unknown): Diagnostic {
  if (err instanceof DiagnosticError)
    return { severity: 'error', summary: err.summary, detail: err.detail, ...(err.path ? { path: err.path } : {}) };
  if (err instanceof ApiError) {
    // The client's message already names the operation, status and request id, and never a secret.
    return { severity: 'error', summary, detail: err.message };
  }
  // A limit the configuration (or the type's default) set: said as such, never as a bug.
  if (err instanceof Error && err.name === 'OperationTimedOut') {
    return { severity: 'error', summary, detail: `${err.message[0]!.toUpperCase()}${err.message.slice(1)}.` };
  }
  if (err instanceof Error && err.name === 'AbortError') {
    return {
      severity: 'error',
      summary,
      detail: 'The operation was cancelled because Terraform asked the provider to stop.',
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    severity: 'error',
    summary,
    detail: `Internal provider error: ${message}. This is a bug in the provider; please report it.`,
  };
}

/** Two pieces of a detail joined as sentences: API messages end without a full stop. */
export function sentences(first: string, second: string): string {
  return `${first}${/[.!?]$/.test(first) ? '' : '.'} ${second}`;
}
