/**
 * The tfplugin6.Provider service table: every RPC is decode → engine → encode, inside one guard that
 * turns anything unexpected into an error diagnostic, so the process never dies of input. This is the
 * only module that knows both the protocol messages and the engine.
 */
import type { ProviderEngine, PrivateState } from '../engine/provider-engine.js';
import { Diagnostics, diagnosticFromError, type Diagnostic } from '../engine/diagnostics.js';
import type { Logger } from '../engine/contracts.js';
import type { Schema } from '../schema/block.js';
import { blockShapeProblem, impliedType, type ShapeRules } from '../schema/block.js';
import type { CtyType } from '../schema/cty-type.js';
import type { ObjectValue, Value } from '../schema/value.js';
import { decodeMsgpack, encodeMsgpack } from '../schema/msgpack.js';
import { decodeJSON } from '../schema/json.js';
import { formatPath } from '../schema/path.js';
import { schemaToProto, pathToProto } from './wire-schema.js';
import { PreEncoded, encodeMessage, messageType } from './proto.js';
import { measureApiTime } from '../clients/api-timing.js';

type Msg = Record<string, any>;
export type RpcHandler = (request: Msg, call: { signal: AbortSignal }) => Promise<Msg>;

const SEVERITY = { error: 1, warning: 2 } as const;

/** A request that cannot be decoded: reported as a diagnostic naming what was wrong. */
class BadRequest extends Error {}

export function diagnosticsToProto(diags: readonly Diagnostic[]): Msg[] {
  return diags.map((d) => ({
    severity: SEVERITY[d.severity],
    summary: d.summary,
    detail: d.detail,
    ...(d.path && d.path.length > 0 ? { attribute: pathToProto(d.path) } : {}),
  }));
}

function decodeDynamic(type: CtyType, dv: Msg | null | undefined, what: string): Value {
  try {
    if (dv?.msgpack && dv.msgpack.length > 0) return decodeMsgpack(type, dv.msgpack);
    if (dv?.json && dv.json.length > 0) return decodeJSON(type, dv.json);
    return null;
  } catch (err) {
    throw new BadRequest(`The ${what} sent by Terraform could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * What each decoded value must satisfy besides its type. Configuration may hold null elements (the
 * validation RPCs report them at their path); values past validation and stored states do not.
 */
const UNVALIDATED_CONFIG: ShapeRules = { itemCounts: true, noNullElements: false };
/** Configuration past validation, and the planned values built from it. */
const CONFIG: ShapeRules = { itemCounts: true, noNullElements: true };
/** States: an import starts with no blocks, so item counts do not hold. */
const STATE: ShapeRules = { itemCounts: false, noNullElements: true };

function decodeObject(schema: Schema, dv: Msg | null | undefined, what: string, rules: ShapeRules): ObjectValue | null {
  const v = decodeDynamic(impliedType(schema.block), dv, what);
  if (v !== null && (typeof v !== 'object' || Array.isArray(v) || v.constructor !== Object)) throw new BadRequest(`The ${what} is not an object.`);
  const problem = v === null ? null : blockShapeProblem(schema.block, v as ObjectValue, rules);
  if (problem) throw new BadRequest(`The ${what} sent by Terraform is malformed${problem.path.length > 0 ? ` at ${formatPath(problem.path)}` : ''}: ${problem.message}.`);
  return v as ObjectValue | null;
}

/** A name from the request, quoted and cut short: a hostile one may be megabytes long. */
const quoteShort = (name: string): string => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);

const encodeDynamic = (type: CtyType, v: Value): Msg => ({ msgpack: Buffer.from(encodeMsgpack(type, v)) });

function decodePrivate(bytes: Uint8Array | undefined): PrivateState {
  if (!bytes || bytes.length === 0) return {};
  try {
    const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PrivateState) : {};
  } catch {
    throw new BadRequest('The private state sent by Terraform is not valid JSON.');
  }
}

/**
 * get_provider_schema_optional: the schema is the same in every process, so Terraform may reuse
 * the one it fetched from the first provider process of a command instead of asking each one.
 */
const SERVER_CAPABILITIES = { plan_destroy: false, get_provider_schema_optional: true, move_resource_state: false };

/** A google.protobuf.Timestamp. */
const timestamp = (at: Date): Msg => ({ seconds: Math.floor(at.getTime() / 1000), nanos: (at.getTime() % 1000) * 1_000_000 });

const encodePrivate = (p: PrivateState): Buffer => (Object.keys(p).length === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(p)));

/** Builds the handler table for one engine. */
export function providerService<C>(engine: ProviderEngine<C>, log: Logger): Record<string, RpcHandler> {
  let schemaResponse: PreEncoded | undefined;
  const typeOf = (s: Schema) => impliedType(s.block);

  function resourceSchema(name: string): Schema {
    const s = engine.resourceSchema(name);
    if (!s) throw new BadRequest(`The provider has no resource type ${quoteShort(name)}.`);
    return s;
  }
  function ephemeralSchema(name: string): Schema {
    const s = engine.ephemeralResourceSchema(name);
    if (!s) throw new BadRequest(`The provider has no ephemeral resource ${quoteShort(name)}.`);
    return s;
  }
  function dataSourceSchema(name: string): Schema {
    const s = engine.dataSourceSchema(name);
    if (!s) throw new BadRequest(`The provider has no data source ${quoteShort(name)}.`);
    return s;
  }

  /** One guard for every RPC: timing, logging without values, and no exception escapes. */
  function guarded(rpc: string, fallback: (diags: Msg[]) => Msg, body: (req: Msg) => Promise<Msg> | Msg): RpcHandler {
    const roundMs = (x: number) => Math.round(x * 1000) / 1000;
    return (req) => measureApiTime(async (apiMs) => {
      const started = performance.now();
      const rpcLog = log.child({ tf_rpc: rpc, ...(req.type_name ? { tf_resource_type: String(req.type_name) } : {}) });
      try {
        const res = await body(req);
        // api_ms: time spent waiting on the management API, so the provider's own share can be told apart.
        rpcLog.trace('RPC done', { tf_req_duration_ms: roundMs(performance.now() - started), api_ms: roundMs(apiMs()), diagnostics: res.diagnostics?.length ?? 0 });
        return res;
      } catch (err) {
        const summary = err instanceof BadRequest ? 'Invalid request from Terraform' : `Provider error during ${rpc}`;
        const d = err instanceof BadRequest ? { severity: 'error' as const, summary, detail: err.message } : diagnosticFromError(summary, err);
        rpcLog.error('RPC failed', { error: d.detail });
        return fallback(diagnosticsToProto([d]));
      }
    });
  }
  const diagsOnly = (diagnostics: Msg[]) => ({ diagnostics });
  const unsupported = (what: string) => diagsOnly(diagnosticsToProto(new Diagnostics().error('Not supported', `This provider offers no ${what}.`).items));

  // Terraform asks once per process, or once per command thanks to get_provider_schema_optional.
  function getProviderSchema(): PreEncoded {
    schemaResponse ??= new PreEncoded(
      encodeMessage(messageType('tfplugin6.GetProviderSchema.Response'), {
        provider: schemaToProto(engine.providerSchema()),
        resource_schemas: Object.fromEntries([...engine.resourceSchemas()].map(([k, s]) => [k, schemaToProto(s)])),
        data_source_schemas: Object.fromEntries([...engine.dataSourceSchemas()].map(([k, s]) => [k, schemaToProto(s)])),
        functions: {},
        ephemeral_resource_schemas: Object.fromEntries([...engine.ephemeralResourceSchemas()].map(([k, s]) => [k, schemaToProto(s)])),
        list_resource_schemas: {},
        diagnostics: [],
        server_capabilities: SERVER_CAPABILITIES,
      }),
    );
    return schemaResponse;
  }

  return {
    GetMetadata: guarded('GetMetadata', diagsOnly, () => ({
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
      resources: [...engine.resourceSchemas().keys()].map((type_name) => ({ type_name })),
      data_sources: [...engine.dataSourceSchemas().keys()].map((type_name) => ({ type_name })),
      functions: [],
      ephemeral_resources: [...engine.ephemeralResourceSchemas().keys()].map((type_name) => ({ type_name })),
      list_resources: [],
    })),
    GetProviderSchema: guarded('GetProviderSchema', diagsOnly, getProviderSchema),
    GetResourceIdentitySchemas: guarded('GetResourceIdentitySchemas', diagsOnly, () => ({ identity_schemas: {}, diagnostics: [] })),
    GetFunctions: guarded('GetFunctions', diagsOnly, () => ({ functions: {}, diagnostics: [] })),
    ValidateProviderConfig: guarded('ValidateProviderConfig', diagsOnly, (req) => {
      const config = decodeObject(engine.providerSchema(), req.config, 'provider configuration', UNVALIDATED_CONFIG) ?? {};
      return { diagnostics: diagnosticsToProto(engine.validateProviderConfig(config).items) };
    }),
    ConfigureProvider: guarded('ConfigureProvider', diagsOnly, async (req) => {
      const config = decodeObject(engine.providerSchema(), req.config, 'provider configuration', CONFIG) ?? {};
      return { diagnostics: diagnosticsToProto((await engine.configureProvider(String(req.terraform_version ?? ''), config)).items) };
    }),
    ValidateResourceConfig: guarded('ValidateResourceConfig', diagsOnly, (req) => {
      const config = decodeObject(resourceSchema(req.type_name), req.config, 'resource configuration', UNVALIDATED_CONFIG) ?? {};
      // Terraform before 1.11 sends no capabilities: it cannot carry write-only values.
      const client = { writeOnlyAttributesAllowed: req.client_capabilities?.write_only_attributes_allowed === true };
      return { diagnostics: diagnosticsToProto(engine.validateResourceConfig(req.type_name, config, client).items) };
    }),
    ValidateDataResourceConfig: guarded('ValidateDataResourceConfig', diagsOnly, (req) => {
      const config = decodeObject(dataSourceSchema(req.type_name), req.config, 'data source configuration', UNVALIDATED_CONFIG) ?? {};
      return { diagnostics: diagnosticsToProto(engine.validateDataResourceConfig(req.type_name, config).items) };
    }),
    UpgradeResourceState: guarded('UpgradeResourceState', diagsOnly, (req) => {
      const type = typeOf(resourceSchema(req.type_name));
      const version = Number(req.version ?? 0);
      // Schema versions count up from 0; anything else is not a state Terraform could have stored.
      if (!Number.isSafeInteger(version) || version < 0) throw new BadRequest(`The stored state has schema version ${req.version}, which is not a valid version.`);
      const raw = req.raw_state?.json && req.raw_state.json.length > 0 ? Buffer.from(req.raw_state.json).toString('utf8') : null;
      const hasFlatmap = req.raw_state?.flatmap && Object.keys(req.raw_state.flatmap).length > 0;
      const { state, diags } = engine.upgradeResourceState(req.type_name, version, raw ?? (hasFlatmap ? null : 'null'));
      return { ...(diags.hasErrors ? {} : { upgraded_state: encodeDynamic(type, state) }), diagnostics: diagnosticsToProto(diags.items) };
    }),
    ReadResource: guarded('ReadResource', diagsOnly, async (req) => {
      const schema = resourceSchema(req.type_name);
      const type = typeOf(schema);
      const current = decodeObject(schema, req.current_state, 'current state', STATE);
      if (current === null) return { new_state: encodeDynamic(type, null), private: req.private, diagnostics: [] };
      const out = await engine.readResource(req.type_name, current, decodePrivate(req.private));
      return { new_state: encodeDynamic(type, out.state), private: encodePrivate(out.private), diagnostics: diagnosticsToProto(out.diags.items) };
    }),
    PlanResourceChange: guarded('PlanResourceChange', diagsOnly, (req) => {
      const schema = resourceSchema(req.type_name);
      const type = typeOf(schema);
      const prior = decodeObject(schema, req.prior_state, 'prior state', STATE);
      const proposed = decodeObject(schema, req.proposed_new_state, 'proposed new state', CONFIG);
      const config = decodeObject(schema, req.config, 'configuration', CONFIG);
      const out = engine.planResourceChange(req.type_name, prior, proposed, config, decodePrivate(req.prior_private));
      return {
        planned_state: encodeDynamic(type, out.planned),
        requires_replace: out.requiresReplace.map(pathToProto),
        planned_private: encodePrivate(out.plannedPrivate),
        diagnostics: diagnosticsToProto(out.diags.items),
        legacy_type_system: false,
      };
    }),
    ApplyResourceChange: guarded('ApplyResourceChange', diagsOnly, async (req) => {
      const schema = resourceSchema(req.type_name);
      const type = typeOf(schema);
      const prior = decodeObject(schema, req.prior_state, 'prior state', STATE);
      const planned = decodeObject(schema, req.planned_state, 'planned state', CONFIG);
      const config = decodeObject(schema, req.config, 'configuration', CONFIG);
      if (prior === null && planned === null) throw new BadRequest('Both the prior and the planned state are null: there is nothing to create, update or delete.');
      const out = await engine.applyResourceChange(req.type_name, prior, planned, decodePrivate(req.planned_private), config);
      return { new_state: encodeDynamic(type, out.state), private: encodePrivate(out.private), diagnostics: diagnosticsToProto(out.diags.items), legacy_type_system: false };
    }),
    ImportResourceState: guarded('ImportResourceState', diagsOnly, async (req) => {
      const type = typeOf(resourceSchema(req.type_name));
      const out = await engine.importResourceState(req.type_name, String(req.id ?? ''));
      const imported = out.state === null ? [] : [{ type_name: req.type_name, state: encodeDynamic(type, out.state), private: encodePrivate(out.private) }];
      return { imported_resources: imported, diagnostics: diagnosticsToProto(out.diags.items) };
    }),
    ReadDataSource: guarded('ReadDataSource', diagsOnly, async (req) => {
      const schema = dataSourceSchema(req.type_name);
      const type = typeOf(schema);
      const config = decodeObject(schema, req.config, 'data source configuration', CONFIG) ?? {};
      const out = await engine.readDataSource(req.type_name, config);
      return { ...(out.state ? { state: encodeDynamic(type, out.state) } : {}), diagnostics: diagnosticsToProto(out.diags.items) };
    }),
    StopProvider: guarded('StopProvider', () => ({ Error: 'stop failed' }), () => {
      engine.stop();
      return { Error: '' };
    }),
    // RPCs for features this provider does not offer: well-formed answers with a diagnostic.
    MoveResourceState: guarded('MoveResourceState', diagsOnly, () => unsupported('moves between resource types')),
    UpgradeResourceIdentity: guarded('UpgradeResourceIdentity', diagsOnly, () => unsupported('resource identities')),
    CallFunction: guarded('CallFunction', () => ({ error: { text: 'This provider offers no functions.' } }), (req) => ({
      error: { text: `This provider offers no function "${String(req.name ?? '')}".` },
    })),
    ValidateEphemeralResourceConfig: guarded('ValidateEphemeralResourceConfig', diagsOnly, (req) => {
      const config = decodeObject(ephemeralSchema(req.type_name), req.config, 'ephemeral resource configuration', UNVALIDATED_CONFIG) ?? {};
      return { diagnostics: diagnosticsToProto(engine.validateEphemeralResourceConfig(req.type_name, config).items) };
    }),
    OpenEphemeralResource: guarded('OpenEphemeralResource', diagsOnly, async (req) => {
      const schema = ephemeralSchema(req.type_name);
      const config = decodeObject(schema, req.config, 'ephemeral resource configuration', CONFIG) ?? {};
      const out = await engine.openEphemeralResource(req.type_name, config);
      return {
        ...(out.result ? { result: encodeDynamic(typeOf(schema), out.result) } : {}),
        ...(out.renewAt ? { renew_at: timestamp(out.renewAt) } : {}),
        private: encodePrivate(out.private),
        diagnostics: diagnosticsToProto(out.diags.items),
      };
    }),
    RenewEphemeralResource: guarded('RenewEphemeralResource', diagsOnly, async (req) => {
      ephemeralSchema(req.type_name);
      const out = await engine.renewEphemeralResource(req.type_name, decodePrivate(req.private));
      return { ...(out.renewAt ? { renew_at: timestamp(out.renewAt) } : {}), private: encodePrivate(out.private), diagnostics: diagnosticsToProto(out.diags.items) };
    }),
    CloseEphemeralResource: guarded('CloseEphemeralResource', diagsOnly, async (req) => {
      ephemeralSchema(req.type_name);
      return { diagnostics: diagnosticsToProto((await engine.closeEphemeralResource(req.type_name, decodePrivate(req.private))).items) };
    }),
    ValidateListResourceConfig: guarded('ValidateListResourceConfig', diagsOnly, () => unsupported('list resources')),
  };
}
