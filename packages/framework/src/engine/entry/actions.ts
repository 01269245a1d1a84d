/**
 * Actions (Terraform 1.14 and later): their schemas, ValidateActionConfig, PlanAction and
 * InvokeAction. Terraform validates an action's configuration (values may be unknown), plans it
 * (unknown values again possible when a resource's `action_trigger` runs it after a create; nothing
 * is sent to the platform), then invokes it with every value known and reads a stream of progress
 * lines that ends with one result. The run ends when the action does, when Terraform calls
 * StopProvider, or when the call ends (its deadline, Terraform gone): what the action set going on
 * the platform before is named in the result and never requested again.
 */
import type { Schema } from '../../schema/block.js';
import type { Fields } from '../../schema/define.js';
import { toModel } from '../../schema/model.js';
import { isWhollyKnown } from '../../schema/value-ops.js';
import type { ObjectValue } from '../../schema/value.js';
import { impliedType } from '../../schema/block.js';
import { isApiError } from '../../wire/api-error.js';
import type { ActionContext, ActionDef } from '../contracts/index.js';
import { DiagnosticError, Diagnostics, diagnosticFromError, sentences, type Diagnostic } from '../diagnostics/index.js';
import { MODEL_OPTIONS, errorsOf, providerRuleErrors, type EngineContext } from '../context/index.js';
import { checkConfig } from '../plan/index.js';

/** One event of a run: a progress line, or the result (the last event). */
export type ActionEvent =
  | { progress: string; completed?: undefined }
  | { completed: Diagnostics; progress?: undefined };

export interface InvokeOptions {
  /** Aborted when the call ends before the action does (its deadline passed, or Terraform closed it). */
  signal?: AbortSignal;
}

export class Actions<C> {
  constructor(private readonly ctx: EngineContext<C>) {}

  actionSchemas(): Map<string, Schema> {
    return this.ctx.actions.collect((a) => a.schema);
  }
  actionSchema(typeName: string): Schema | undefined {
    return this.ctx.actions.get(typeName)?.schema;
  }

  /** ValidateActionConfig: every check the configuration allows; unknown values are judged later. */
  validateActionConfig(typeName: string, config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    const a = this.ctx.actions.find(typeName, diags);
    if (!a) return diags;
    checkConfig(a, config, diags, { summary: 'Invalid action configuration', limits: this.ctx.def.limits });
    return diags;
  }

  /**
   * PlanAction: the checks again, now with the provider configured (its defaults). Sends nothing.
   * Warnings were shown at validation; only errors count here.
   */
  planAction(typeName: string, config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    const a = this.ctx.actions.find(typeName, diags);
    if (!a) return diags;
    return diags.append(this.errorsOf(a, config));
  }

  /**
   * InvokeAction: runs the action, yielding its progress lines as they come and then its result.
   * Stops the action when the consumer stops reading.
   */
  async *invokeAction(typeName: string, config: ObjectValue, options: InvokeOptions = {}): AsyncGenerator<ActionEvent> {
    const diags = new Diagnostics();
    const a = this.ctx.actions.find(typeName, diags);
    if (!a) {
      yield { completed: diags };
      return;
    }
    if (!isWhollyKnown(impliedType(a.schema.block), config)) {
      const detail =
        `Terraform invoked ${typeName} with values of its configuration not known yet; it plans an action ` +
        'until they are known. This is a bug in Terraform; please report it.';
      yield { completed: diags.error('Action configuration unknown', detail) };
      return;
    }
    if (diags.append(this.errorsOf(a, config)).hasErrors) {
      yield { completed: diags };
      return;
    }
    // Taken now: StopProvider replaces the signal with a fresh one once it has aborted it.
    const stop = this.ctx.stopSignal;
    const ended = new AbortController();
    const signals = [ended.signal, ...(options.signal ? [options.signal] : [])];
    const op = this.ctx.operation(diags, {}, typeName, undefined, AbortSignal.any(signals));
    const lines: string[] = [];
    const started: string[] = [];
    let wake: (() => void) | undefined;
    let outcome: { failure: unknown } | 'succeeded' | undefined;
    const context: ActionContext<C> = {
      get client() {
        return op.client;
      },
      signal: op.signal,
      get log() {
        return op.log;
      },
      diags,
      progress(message) {
        lines.push(message);
        wake?.();
      },
      started(what) {
        started.push(what);
      },
    };
    void (async () => {
      try {
        await a.invoke(toModel(a.schema.fields, config, MODEL_OPTIONS), context);
        outcome = 'succeeded';
      } catch (failure) {
        outcome = { failure };
      }
      wake?.();
    })();
    try {
      for (;;) {
        while (lines.length > 0) yield { progress: lines.shift()! };
        if (outcome !== undefined) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      // The consumer stopped reading, or the run is over: either way nothing more is to be done.
      ended.abort(new Error('the InvokeAction call ended'));
    }
    if (outcome !== 'succeeded') {
      const failure = outcome.failure;
      const why = stop.aborted
        ? { summary: 'Action stopped', cause: 'Terraform asked the provider to stop' }
        : options.signal?.aborted
          ? { summary: 'Action cut short', cause: 'The call ended (its deadline passed, or Terraform closed it)' }
          : undefined;
      diags.append([why ? interrupted(typeName, why, started, failure) : failed(typeName, started, failure)]);
    }
    yield { completed: diags };
  }

  /** The errors of the configuration checks, with the provider's own rules once it is configured. */
  private errorsOf(a: ActionDef<Fields, C>, config: ObjectValue): Diagnostic[] {
    const errors = errorsOf(a, config, null, this.ctx.def.limits);
    if (errors.length > 0) return errors;
    return providerRuleErrors(a, config, this.ctx.client, 'Invalid action configuration');
  }
}

/** What keeps running after the action's run ended early, as a sentence. */
function keepsRunning(started: readonly string[]): string {
  return `It had started ${started.join(' and ')}, which keeps running on the platform and is not requested again.`;
}

/** A run cut short by a stop or the end of the call: why, what it leaves, and what its last request said. */
function interrupted(
  typeName: string,
  why: { summary: string; cause: string },
  started: readonly string[],
  failure: unknown,
): Diagnostic {
  let detail = `${why.cause} while ${typeName} ran.`;
  const lost = isApiError(failure, 'outcome_unknown');
  if (started.length > 0) detail = `${detail} ${keepsRunning(started)}`;
  else if (!lost) detail = `${detail} It had changed nothing on the platform.`;
  // A stop seen by the action itself says nothing new; anything else is what the last request met.
  const aborted = (failure instanceof Error && failure.name === 'AbortError') || isApiError(failure, 'cancelled');
  if (!aborted) detail = sentences(detail, failureText(failure));
  return { severity: 'error', summary: why.summary, detail };
}

/**
 * A run that failed on its own: the action's message, and what it had started before (a
 * DiagnosticError is the action's whole account and says that itself).
 */
function failed(typeName: string, started: readonly string[], failure: unknown): Diagnostic {
  const d = diagnosticFromError(`Cannot run ${typeName}`, failure);
  if (failure instanceof DiagnosticError || started.length === 0) return d;
  return { ...d, detail: sentences(d.detail, keepsRunning(started)) };
}

function failureText(failure: unknown): string {
  if (failure instanceof DiagnosticError) return `${failure.summary}: ${failure.detail}`;
  return diagnosticFromError('', failure).detail;
}
