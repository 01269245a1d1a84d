/**
 * List resources (Terraform 1.14 and later, `terraform query`): a resource type that declares
 * `list` has a list resource of the same name. Their schemas, ValidateListResourceConfig and
 * ListResource.
 */
import type { Schema } from '../../schema/block.js';
import type { Fields, ModelOf } from '../../schema/define.js';
import { fromModel, toModel } from '../../schema/model.js';
import type { ObjectValue } from '../../schema/value.js';
import type { Partial2 } from '../contracts/index.js';
import { Diagnostics, diagnosticFromError } from '../diagnostics/index.js';
import { MODEL_OPTIONS, errorsOf, type EngineContext } from '../context/index.js';
import { formatIdentity, identityOfState, missingAttributes } from './identity.js';
import { reconcileRead, checkConfig } from '../plan/index.js';
import { withDefaults } from './resource-state.js';

/** One event of a listing: a result, or diagnostics (an error ends the listing). */
export type ListEvent = { result: ListedObject; diags?: undefined } | { diags: Diagnostics; result?: undefined };

export interface ListedObject {
  identity: ObjectValue;
  displayName: string;
  /** The resource object, when asked for. */
  state?: ObjectValue;
}

export interface ListOptions {
  includeResource: boolean;
  limit: number;
  signal?: AbortSignal;
}

export class ListResources<C> {
  constructor(private readonly ctx: EngineContext<C>) {}

  listResourceSchemas(): Map<string, Schema> {
    return this.ctx.listResources.collect((r) => r.list?.schema);
  }
  listResourceSchema(typeName: string): Schema | undefined {
    return this.ctx.listResources.get(typeName)?.list?.schema;
  }

  validateListResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    const list = this.ctx.listResources.find(typeName, diags)?.list;
    if (!list) return diags;
    checkConfig(list, config, diags, { summary: 'Invalid list configuration', limits: this.ctx.def.limits });
    return diags;
  }

  /**
   * ListResource: the objects the filters select, at most `limit`, each with its identity, display
   * name and, with `includeResource`, the state an import of it reaches (built as import and read
   * build it). Yields as it goes so that a consumer that stops early stops the work; a failure ends
   * the listing with an error event.
   */
  async *listResource(typeName: string, config: ObjectValue, options: ListOptions): AsyncGenerator<ListEvent> {
    const diags = new Diagnostics();
    const r = this.ctx.listResources.get(typeName);
    const list = r?.list;
    // Listing returns identities: a type without one cannot be listed.
    if (!r || !list || !r.identity) {
      yield { diags: this.ctx.listResources.reportUnknown(typeName, diags) };
      return;
    }
    if (diags.append(errorsOf(list, config, null, this.ctx.def.limits)).hasErrors) {
      yield { diags };
      return;
    }
    if (options.limit <= 0) return;
    const ctx = this.ctx.operation(diags, {}, typeName, undefined, options.signal);
    let found: readonly Partial2<ModelOf<Fields>>[];
    try {
      found = await list.list(toModel(list.schema.fields, config, MODEL_OPTIONS), ctx);
    } catch (err) {
      const failure = diagnosticFromError(`Cannot list ${typeName}`, err);
      yield { diags: new Diagnostics().append(diags.items).append([failure]) };
      return;
    }
    // Warnings the listing reported come first, on their own (Terraform shows them and skips the event).
    if (diags.items.length > 0) yield { diags };
    const fields = r.schema.fields;
    // The start an import has before its read: nothing known, defaults filled in.
    const start = withDefaults(fields, fromModel(fields, {}, null));
    let sent = 0;
    for (const object of found) {
      if (sent >= options.limit || options.signal?.aborted) return;
      const state = reconcileRead(fields, start, fromModel(fields, object, start));
      const identity = identityOfState(r.identity, state, this.ctx.client);
      const missing = missingAttributes(identity);
      if (missing.length > 0) {
        const detail =
          `A listed ${typeName} lacks ${missing.map((n) => `\`${n}\``).join(', ')} of its identity: ` +
          `${formatIdentity(r.identity, identity)}. This is a bug in the provider; please report it.`;
        yield { diags: new Diagnostics().error('Incomplete list result', detail) };
        return;
      }
      sent++;
      const displayName = list.displayName(toModel(fields, state));
      yield { result: { identity, displayName, ...(options.includeResource ? { state } : {}) } };
    }
  }
}
