/**
 * The action RPCs of tfplugin6 (protocol 6.10, Terraform 1.14 and later): ValidateActionConfig and
 * PlanAction answer once; InvokeAction is server-streaming, a Progress event per line the action
 * reports and one Completed event last, whose diagnostics carry any failure (a failure of the
 * platform is a diagnostic, never a gRPC error). Kept apart from the rest of the service table
 * (./provider-service.ts), which hands over its guard and its decoding (`ActionRpcKit`).
 *
 * Terraform names the type `type_name` in ValidateActionConfig and `action_type` in the other two.
 */
import type { ProviderEngine } from '../engine/entry/index.js';
import type { Diagnostic, Logger } from '../engine/diagnostics/index.js';
import { unknownTypeDetail } from '../engine/context/index.js';
import type { Schema } from '../schema/block.js';
import type { ObjectValue } from '../schema/value.js';

type Msg = Record<string, any>;
type Handler = (request: Msg, call: { signal: AbortSignal }) => Promise<Msg>;
type StreamHandler = (request: Msg, call: { signal: AbortSignal }) => AsyncIterable<Msg>;

/** The service's guard: logging and timing, and anything thrown becomes an error diagnostic. */
export type Guard = (rpc: string, fallback: (diags: Msg[]) => Msg, body: (req: Msg) => Promise<Msg> | Msg) => Handler;

/** What the service table lends the action RPCs. */
export interface ActionRpcKit {
  /**
   * A configuration DynamicValue decoded against `schema` (null on the wire: every argument unset);
   * `validated`: past validation, so no null elements. Throws the service's bad-request error.
   */
  decodeConfig(schema: Schema, value: Msg | undefined, validated: boolean): ObjectValue;
  /** The service's bad-request error (reported as "Invalid request from Terraform"). */
  badRequest(message: string): Error;
  /** An error thrown while serving `rpc`, as one diagnostic (a bad request, or a provider error). */
  failure(rpc: string, err: unknown): Diagnostic;
  toProto(diags: readonly Diagnostic[]): Msg[];
}

function schemaOf<C>(engine: ProviderEngine<C>, kit: ActionRpcKit, typeName: unknown): Schema {
  const schema = engine.actionSchema(String(typeName ?? ''));
  if (!schema) throw kit.badRequest(unknownTypeDetail(engine.def.name, 'action', String(typeName ?? '')));
  return schema;
}

export function actionRpcs<C>(
  engine: ProviderEngine<C>,
  guarded: Guard,
  kit: ActionRpcKit,
): Record<'ValidateActionConfig' | 'PlanAction', Handler> {
  const diagsOnly = (diagnostics: Msg[]) => ({ diagnostics });
  return {
    ValidateActionConfig: guarded('ValidateActionConfig', diagsOnly, (req) => {
      const config = kit.decodeConfig(schemaOf(engine, kit, req.type_name), req.config, false);
      return { diagnostics: kit.toProto(engine.validateActionConfig(req.type_name, config).items) };
    }),
    // Never deferred: Terraform 1.14 always plans actions with deferral_allowed false.
    PlanAction: guarded('PlanAction', diagsOnly, (req) => {
      const config = kit.decodeConfig(schemaOf(engine, kit, req.action_type), req.config, true);
      return { diagnostics: kit.toProto(engine.planAction(req.action_type, config).items) };
    }),
  };
}

export function actionStreamRpcs<C>(
  engine: ProviderEngine<C>,
  log: Logger,
  kit: ActionRpcKit,
): Record<'InvokeAction', StreamHandler> {
  return {
    InvokeAction: async function* (req, call) {
      const started = performance.now();
      const rpcLog = log.child({
        tf_rpc: 'InvokeAction',
        ...(req.action_type ? { tf_action_type: String(req.action_type).slice(0, 100) } : {}),
      });
      let events = 0;
      try {
        const config = kit.decodeConfig(schemaOf(engine, kit, req.action_type), req.config, true);
        for await (const event of engine.invokeAction(req.action_type, config, { signal: call.signal })) {
          events++;
          if (event.progress !== undefined) yield { progress: { message: event.progress } };
          else yield { completed: { diagnostics: kit.toProto(event.completed.items) } };
        }
      } catch (err) {
        const d = kit.failure('InvokeAction', err);
        rpcLog.error('RPC failed', { error: d.detail });
        events++;
        yield { completed: { diagnostics: kit.toProto([d]) } };
      } finally {
        rpcLog.trace('RPC done', {
          tf_req_duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
          events,
        });
      }
    },
  };
}
