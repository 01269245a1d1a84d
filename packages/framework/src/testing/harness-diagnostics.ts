/**
 * What the harness's calls (./harness.ts) report: the engine's diagnostics with their attribute paths
 * written as Terraform writes them, warnings kept with the call and errors turned into a rejection, a
 * `HarnessError` whose message lists them all.
 */
import type { Diagnostic } from '../engine/diagnostics/index.js';
import { formatPath } from '../schema/path.js';
import { ModelError, type HarnessModel } from './harness-values.js';

/** A diagnostic as a test reads it. */
export interface HarnessDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly summary: string;
  readonly detail: string;
  /** The attribute it is about, as Terraform writes it (`rule[0].port`, `tags["env"]`); absent when none. */
  readonly path?: string;
  /** For a function call's error: the argument it is about (0 for the first); absent when none. */
  readonly argument?: number;
}

/**
 * A call whose diagnostics hold an error: what Terraform would have stopped at. The message lists
 * every diagnostic of the call, its warnings too.
 */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  /** What failed, e.g. `create of kv_entry`. */
  readonly operation: string;
  readonly diagnostics: readonly HarnessDiagnostic[];
  /**
   * What a failed apply leaves in the state: the object as it exists when a create or update failed
   * after it came to be (Terraform keeps a created one, tainted), the prior state when nothing
   * changed, null when nothing exists; undefined for other calls.
   */
  readonly state?: HarnessModel | null;

  constructor(operation: string, diagnostics: readonly HarnessDiagnostic[], state?: HarnessModel | null) {
    super(`${operation} failed:\n${diagnostics.map(describeDiagnostic).join('\n')}`);
    this.operation = operation;
    this.diagnostics = diagnostics;
    if (state !== undefined) this.state = state;
  }

  /** The diagnostics that are errors. */
  get errors(): readonly HarnessDiagnostic[] {
    return this.diagnostics.filter((d) => d.severity === 'error');
  }
}

/** One diagnostic on a line of its own (its detail indented below): `Error: Invalid value (at key)`. */
export function describeDiagnostic(d: HarnessDiagnostic): string {
  const at = [d.path !== undefined ? `at ${d.path}` : '', d.argument !== undefined ? `argument ${d.argument}` : '']
    .filter((part) => part !== '')
    .join(', ');
  const head = `  ${d.severity === 'error' ? 'Error' : 'Warning'}: ${d.summary}${at ? ` (${at})` : ''}`;
  return d.detail ? `${head}\n    ${d.detail.replace(/\n/g, '\n    ')}` : head;
}

export function harnessDiagnostic(d: Diagnostic): HarnessDiagnostic {
  return {
    severity: d.severity,
    summary: d.summary,
    detail: d.detail,
    ...(d.path && d.path.length > 0 ? { path: formatPath(d.path) } : {}),
  };
}

/** What of a model does not fit its schema, as the error Terraform reports for such a configuration. */
export function modelDiagnostic(err: ModelError): HarnessDiagnostic {
  return {
    severity: 'error',
    summary: err.summary,
    detail: err.detail,
    ...(err.path.length > 0 ? { path: formatPath(err.path) } : {}),
  };
}

/** One call's diagnostics as they come: warnings kept, the first error rejects with all so far. */
export class CallReport {
  readonly warnings: HarnessDiagnostic[] = [];

  constructor(readonly operation: string) {}

  /** Takes the diagnostics of a step; throws HarnessError when one is an error. */
  check(items: readonly Diagnostic[], state?: HarnessModel | null): void {
    this.take(items.map(harnessDiagnostic), state);
  }

  /** Fails the call with one error. */
  fail(summary: string, detail: string, more: { path?: string; argument?: number } = {}): never {
    return this.reject({ severity: 'error', summary, detail, ...more });
  }

  private reject(error: HarnessDiagnostic): never {
    throw new HarnessError(this.operation, [...this.warnings, error]);
  }

  private take(found: readonly HarnessDiagnostic[], state?: HarnessModel | null): void {
    if (found.some((d) => d.severity === 'error'))
      throw new HarnessError(this.operation, [...this.warnings, ...found], state);
    this.warnings.push(...found);
  }

  /** A model turned into a value: what does not fit its schema fails the call at its path. */
  model<T>(convert: () => T): T {
    try {
      return convert();
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      return this.reject(modelDiagnostic(err));
    }
  }
}
