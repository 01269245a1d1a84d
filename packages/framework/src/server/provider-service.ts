/**
 * The tfplugin6.Provider service table: every RPC is decode → engine → encode, inside one guard that
 * turns anything unexpected into an error diagnostic, so the process never dies of input. This is the
 * only module that knows both the protocol messages and the engine.
 */
import { IDENTITY_VERSION } from '../engine/resources/index.js';
import type { ProviderEngine } from '../engine/entry/index.js';
import { type PrivateState, unknownTypeDetail, type TypeKind } from '../engine/context/index.js';
import { diagnosticFromError, type Diagnostic, type Logger } from '../engine/diagnostics/index.js';
import type { Schema } from '../schema/block.js';
import { blockShapeProblem, impliedType, rulesLeftAfterDecoding, type ShapeRules } from '../schema/block.js';
import { BOOL, NUMBER, STRING, typeToJSONString, type CtyType } from '../schema/cty-type.js';
import { Unknown, type ObjectValue, type Value } from '../schema/value.js';
import { decodeMsgpackNoting, encodeMsgpack, type DecodedMsgpack } from '../schema/msgpack.js';
import { decodeJSON } from '../schema/json.js';
import { formatPath } from '../schema/path.js';
import { functionToProto, schemaToProto, pathToProto } from './wire-schema.js';
import { PreEncoded, encodeMessage, messageType } from './proto.js';
import { EMPTY_BYTES } from './protobuf-wire.js';
import type { ServedStreamRpc, ServedUnaryRpc } from './rpcs.js';
import { measureApiTime } from '../wire/api-timing.js';
import { actionRpcs, actionStreamRpcs, type ActionRpcKit } from './action-rpcs.js';

type Msg = Record<string, any>;
export type RpcHandler = (request: Msg, call: { signal: AbortSignal }) => Promise<Msg>;
export type StreamHandler = (request: Msg, call: { signal: AbortSignal }) => AsyncIterable<Msg>;

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
  return decodeDynamicNoting(type, dv, what).value;
}

/** What a JSON value or an absent one says of what it holds: nothing (decodeMsgpackNoting notes it). */
const NOTHING_NOTED = { sawUnknown: true, sawNullElement: true } as const;

function decodeDynamicNoting(type: CtyType, dv: Msg | null | undefined, what: string): DecodedMsgpack {
  try {
    if (dv?.msgpack && dv.msgpack.length > 0) return decodeMsgpackNoting(type, dv.msgpack);
    if (dv?.json && dv.json.length > 0) return { value: decodeJSON(type, dv.json), ...NOTHING_NOTED };
    return { value: null, ...NOTHING_NOTED };
  } catch (err) {
    throw new BadRequest(
      `The ${what} sent by Terraform could not be decoded: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * What each decoded value must satisfy besides its type. Configuration may hold null elements (the
 * validation RPCs report them at their path); values past validation and stored states do not.
 */
const UNVALIDATED_CONFIG: ShapeRules = { itemCounts: true, noNullElements: false, known: false };
/** Configuration past validation, and the planned values built from it. */
const CONFIG: ShapeRules = { itemCounts: true, noNullElements: true, known: false };
/** States: an import starts with no blocks, so item counts do not hold. */
const STATE: ShapeRules = { itemCounts: false, noNullElements: true, known: true };

function decodeObject(schema: Schema, dv: Msg | null | undefined, what: string, rules: ShapeRules): ObjectValue | null {
  const decoded = decodeDynamicNoting(impliedType(schema.block), dv, what);
  const v = decoded.value;
  if (v !== null && (typeof v !== 'object' || Array.isArray(v) || v.constructor !== Object))
    throw new BadRequest(`The ${what} is not an object.`);
  // What the decoder saw spares most of the walk: a value without unknowns or null elements (most)
  // is checked for its blocks' item counts alone.
  const left = v === null ? null : rulesLeftAfterDecoding(rules, decoded);
  const problem = left === null ? null : blockShapeProblem(schema.block, v as ObjectValue, left);
  if (problem)
    throw new BadRequest(
      `The ${what} sent by Terraform is ` +
        `malformed${problem.path.length > 0 ? ` at ${formatPath(problem.path)}` : ''}: ${problem.message}.`,
    );
  return v as ObjectValue | null;
}

/** A name from the request, quoted and cut short: a hostile one may be megabytes long. */

const encodeDynamic = (type: CtyType, v: Value): Msg => ({ msgpack: encodeMsgpack(type, v) });

/** Whether a ResourceIdentityData carries a value at all (Terraform leaves it unset when there is none). */
const hasIdentityData = (data: Msg | null | undefined): boolean =>
  (data?.identity_data?.msgpack?.length ?? 0) > 0 || (data?.identity_data?.json?.length ?? 0) > 0;

/** A ResourceIdentityData from Terraform → the identity object, or null when there is none. */
function decodeIdentity(type: CtyType | undefined, data: Msg | null | undefined, what: string): ObjectValue | null {
  if (!hasIdentityData(data)) return null;
  if (!type) throw new BadRequest(`The request carries ${what}, but this resource type has no identity.`);
  const v = decodeDynamic(type, data!.identity_data, what);
  if (v !== null && (typeof v !== 'object' || Array.isArray(v) || v.constructor !== Object))
    throw new BadRequest(`The ${what} is not an object.`);
  return v as ObjectValue | null;
}

/** An identity → ResourceIdentityData fields to spread into a response (nothing when there is none). */
function identityField(field: string, type: CtyType | undefined, identity: ObjectValue | null): Msg {
  return type && identity ? { [field]: { identity_data: encodeDynamic(type, identity) } } : {};
}

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
 * plan_destroy is false: a plan of a destroy (a null one) would cost a call per object and decide nothing,
 * since the plan walk's reads show every object of the state already. move_resource_state: MoveResourceState,
 * when some resource type takes moved state (`moveFrom`, engine/resources/resource-moves.ts); Terraform
 * refuses a `moved` block across types without asking otherwise. generate_resource_config: Terraform
 * 1.14 asks GenerateResourceConfig for the configuration it writes for listed and imported objects
 * (engine/resources/generate-config.ts). Identities and list resources need no capability: Terraform
 * asks for their schemas.
 */
const serverCapabilities = <C>(engine: ProviderEngine<C>) => ({
  plan_destroy: false,
  get_provider_schema_optional: true,
  move_resource_state: engine.moves.offered,
  generate_resource_config: true,
});

/** A google.protobuf.Timestamp. */
const timestamp = (at: Date): Msg => ({
  seconds: Math.floor(at.getTime() / 1000),
  nanos: (at.getTime() % 1000) * 1_000_000,
});

/** No private state: the one empty Buffer the codecs share, rather than a new one per answer. */
const encodePrivate = (p: PrivateState): Buffer =>
  Object.keys(p).length === 0 ? EMPTY_BYTES : Buffer.from(JSON.stringify(p));

/**
 * The answers that depend on the provider's definitions alone, encoded: once per process here, and
 * when the executable is built for the executables (src/providers/prebuilt-schemas.ts).
 */
export interface SchemaResponses {
  /** tfplugin6.GetProviderSchema.Response */
  readonly schema: Buffer;
  /** tfplugin6.GetResourceIdentitySchemas.Response */
  readonly identitySchemas: Buffer;
}

/** Both schema answers of an engine's provider, encoded as the server sends them. */
export function encodeSchemaResponses<C>(engine: ProviderEngine<C>): SchemaResponses {
  return { schema: encodeProviderSchema(engine), identitySchemas: encodeIdentitySchemas(engine) };
}

function encodeProviderSchema<C>(engine: ProviderEngine<C>): Buffer {
  return encodeMessage(messageType('tfplugin6.GetProviderSchema.Response'), {
    provider: schemaToProto(engine.providerSchema()),
    resource_schemas: Object.fromEntries([...engine.resourceSchemas()].map(([k, s]) => [k, schemaToProto(s)])),
    data_source_schemas: Object.fromEntries([...engine.dataSourceSchemas()].map(([k, s]) => [k, schemaToProto(s)])),
    functions: functionsToProto(engine),
    ephemeral_resource_schemas: Object.fromEntries(
      [...engine.ephemeralResourceSchemas()].map(([k, s]) => [k, schemaToProto(s)]),
    ),
    list_resource_schemas: Object.fromEntries([...engine.listResourceSchemas()].map(([k, s]) => [k, schemaToProto(s)])),
    action_schemas: Object.fromEntries([...engine.actionSchemas()].map(([k, s]) => [k, { schema: schemaToProto(s) }])),
    diagnostics: [],
    server_capabilities: serverCapabilities(engine),
  });
}

/** CallFunction's answer: the result in the function's return type, or its error. */
function functionResponse<C>(engine: ProviderEngine<C>, name: string, args: readonly Value[]): Msg {
  const out = engine.functions.call(name, args);
  if (out.error === undefined) return { result: encodeDynamic(engine.functions.get(name)!.returns, out.result) };
  const { text, argument } = out.error;
  return { error: { text, ...(argument === undefined ? {} : { function_argument: argument }) } };
}

/** Every function the provider declares, as GetFunctions and GetProviderSchema carry them. */
function functionsToProto<C>(engine: ProviderEngine<C>): Record<string, Msg> {
  return Object.fromEntries(engine.functions.declarations().map((d) => [d.name, functionToProto(d)]));
}

function encodeIdentitySchemas<C>(engine: ProviderEngine<C>): Buffer {
  return encodeMessage(messageType('tfplugin6.GetResourceIdentitySchemas.Response'), {
    identity_schemas: Object.fromEntries(
      [...engine.identitySchemas()].map(([typeName, def]) => [
        typeName,
        {
          version: IDENTITY_VERSION,
          identity_attributes: Object.entries(def.attributes).map(([name, a]) => ({
            name,
            type: Buffer.from(typeToJSONString(STRING)),
            required_for_import: a.forImport === 'required',
            optional_for_import: a.forImport === 'optional',
            description: a.description,
          })),
        },
      ]),
    ),
    diagnostics: [],
  });
}

/** Builds the handler table for one engine: exactly the RPCs PROVIDER_SERVICE_RPCS lists (./rpcs.ts). */
export function providerService<C>(engine: ProviderEngine<C>, log: Logger): Record<string, RpcHandler> {
  let schemaResponse: PreEncoded | undefined;
  let identitySchemasResponse: PreEncoded | undefined;
  const typeOf = (s: Schema) => impliedType(s.block);

  function resourceSchema(name: string): Schema {
    const s = engine.resourceSchema(name);
    if (!s) throw unknownTypeRequest(engine, 'resource type', name);
    return s;
  }
  function ephemeralSchema(name: string): Schema {
    const s = engine.ephemeralResourceSchema(name);
    if (!s) throw unknownTypeRequest(engine, 'ephemeral resource', name);
    return s;
  }
  function listSchema(name: string): Schema {
    const s = engine.listResourceSchema(name);
    if (!s) throw unknownTypeRequest(engine, 'list resource', name);
    return s;
  }
  function dataSourceSchema(name: string): Schema {
    const s = engine.dataSourceSchema(name);
    if (!s) throw unknownTypeRequest(engine, 'data source', name);
    return s;
  }

  /** One guard for every RPC: timing, logging without values, and no exception escapes. */
  function guarded(
    rpc: string,
    fallback: (diags: Msg[]) => Msg,
    body: (req: Msg, call: { signal: AbortSignal }) => Promise<Msg> | Msg,
  ): RpcHandler {
    const roundMs = (x: number) => Math.round(x * 1000) / 1000;
    // api_ms is read only by the trace line; measuring it needs an AsyncLocalStorage, whose promise
    // hooks cost every promise of the process on Node 20, so it runs only when that line is written.
    const traced = log.enabled?.('trace') ?? true;
    // Made only for a line that is written: most calls write none.
    const rpcLog = (req: Msg) =>
      log.child({ tf_rpc: rpc, ...(req.type_name ? { tf_resource_type: String(req.type_name) } : {}) });
    const run =
      (req: Msg, call: { signal: AbortSignal }) =>
      async (apiMs: () => number): Promise<Msg> => {
        const started = traced ? performance.now() : 0;
        try {
          const res = await body(req, call);
          // api_ms: time spent waiting on the management API, so the provider's own share can be told apart.
          if (traced)
            rpcLog(req).trace('RPC done', {
              tf_req_duration_ms: roundMs(performance.now() - started),
              api_ms: roundMs(apiMs()),
              diagnostics: res.diagnostics?.length ?? 0,
            });
          return res;
        } catch (err) {
          const summary = err instanceof BadRequest ? 'Invalid request from Terraform' : `Provider error during ${rpc}`;
          const d =
            err instanceof BadRequest
              ? { severity: 'error' as const, summary, detail: err.message }
              : diagnosticFromError(summary, err);
          rpcLog(req).error('RPC failed', { error: d.detail });
          return fallback(diagnosticsToProto([d]));
        }
      };
    return (req, call) => (traced ? measureApiTime(run(req, call)) : run(req, call)(() => 0));
  }
  const diagsOnly = (diagnostics: Msg[]) => ({ diagnostics });

  // Terraform asks once per process, or once per command thanks to get_provider_schema_optional;
  // Terraform 1.12 and later ask for the identity schemas right after. The answers never change.
  function getProviderSchema(): PreEncoded {
    schemaResponse ??= new PreEncoded(encodeProviderSchema(engine));
    return schemaResponse;
  }
  function getResourceIdentitySchemas(): PreEncoded {
    identitySchemasResponse ??= new PreEncoded(encodeIdentitySchemas(engine));
    return identitySchemasResponse;
  }

  return {
    GetMetadata: guarded('GetMetadata', diagsOnly, () => ({
      server_capabilities: serverCapabilities(engine),
      diagnostics: [],
      resources: [...engine.resourceSchemas().keys()].map((type_name) => ({ type_name })),
      data_sources: [...engine.dataSourceSchemas().keys()].map((type_name) => ({ type_name })),
      functions: engine.functions.declarations().map((d) => ({ name: d.name })),
      ephemeral_resources: [...engine.ephemeralResourceSchemas().keys()].map((type_name) => ({ type_name })),
      list_resources: [...engine.listResourceSchemas().keys()].map((type_name) => ({ type_name })),
      actions: [...engine.actionSchemas().keys()].map((type_name) => ({ type_name })),
    })),
    GetProviderSchema: guarded('GetProviderSchema', diagsOnly, getProviderSchema),
    GetResourceIdentitySchemas: guarded('GetResourceIdentitySchemas', diagsOnly, getResourceIdentitySchemas),
    GetFunctions: guarded('GetFunctions', diagsOnly, () => ({ functions: functionsToProto(engine), diagnostics: [] })),
    ValidateProviderConfig: guarded('ValidateProviderConfig', diagsOnly, (req) => {
      const config =
        decodeObject(engine.providerSchema(), req.config, 'provider configuration', UNVALIDATED_CONFIG) ?? {};
      return { diagnostics: diagnosticsToProto(engine.validateProviderConfig(config).items) };
    }),
    ConfigureProvider: guarded('ConfigureProvider', diagsOnly, async (req) => {
      const config = decodeObject(engine.providerSchema(), req.config, 'provider configuration', CONFIG) ?? {};
      const diags = await engine.configureProvider(String(req.terraform_version ?? ''), config);
      return { diagnostics: diagnosticsToProto(diags.items) };
    }),
    ValidateResourceConfig: guarded('ValidateResourceConfig', diagsOnly, (req) => {
      const config =
        decodeObject(resourceSchema(req.type_name), req.config, 'resource configuration', UNVALIDATED_CONFIG) ?? {};
      // Terraform before 1.11 sends no capabilities: it cannot carry write-only values.
      const client = { writeOnlyAttributesAllowed: req.client_capabilities?.write_only_attributes_allowed === true };
      return { diagnostics: diagnosticsToProto(engine.validateResourceConfig(req.type_name, config, client).items) };
    }),
    ValidateDataResourceConfig: guarded('ValidateDataResourceConfig', diagsOnly, (req) => {
      const config =
        decodeObject(dataSourceSchema(req.type_name), req.config, 'data source configuration', UNVALIDATED_CONFIG) ??
        {};
      return { diagnostics: diagnosticsToProto(engine.validateDataResourceConfig(req.type_name, config).items) };
    }),
    UpgradeResourceState: guarded('UpgradeResourceState', diagsOnly, (req) => {
      const type = typeOf(resourceSchema(req.type_name));
      const version = Number(req.version ?? 0);
      // Schema versions count up from 0; anything else is not a state Terraform could have stored.
      if (!Number.isSafeInteger(version) || version < 0)
        throw new BadRequest(`The stored state has schema version ${req.version}, which is not a valid version.`);
      const raw =
        req.raw_state?.json && req.raw_state.json.length > 0 ? Buffer.from(req.raw_state.json).toString('utf8') : null;
      const hasFlatmap = req.raw_state?.flatmap && Object.keys(req.raw_state.flatmap).length > 0;
      const { state, diags } = engine.upgradeResourceState(req.type_name, version, raw ?? (hasFlatmap ? null : 'null'));
      return {
        ...(diags.hasErrors ? {} : { upgraded_state: encodeDynamic(type, state) }),
        diagnostics: diagnosticsToProto(diags.items),
      };
    }),
    ReadResource: guarded('ReadResource', diagsOnly, async (req) => {
      const schema = resourceSchema(req.type_name);
      const type = typeOf(schema);
      const identityType = engine.identityTypeOf(req.type_name);
      const current = decodeObject(schema, req.current_state, 'current state', STATE);
      const currentIdentity = decodeIdentity(identityType, req.current_identity, 'current identity');
      if (current === null) return { new_state: encodeDynamic(type, null), private: req.private, diagnostics: [] };
      const out = await engine.readWithIdentity(req.type_name, current, decodePrivate(req.private), currentIdentity);
      return {
        new_state: encodeDynamic(type, out.state),
        private: encodePrivate(out.private),
        diagnostics: diagnosticsToProto(out.diags.items),
        ...identityField('new_identity', identityType, out.identity),
      };
    }),
    PlanResourceChange: guarded('PlanResourceChange', diagsOnly, async (req) => {
      const schema = resourceSchema(req.type_name);
      const type = typeOf(schema);
      const prior = decodeObject(schema, req.prior_state, 'prior state', STATE);
      const proposed = decodeObject(schema, req.proposed_new_state, 'proposed new state', CONFIG);
      const config = decodeObject(schema, req.config, 'configuration', CONFIG);
      const identityType = engine.identityTypeOf(req.type_name);
      const priorIdentity = decodeIdentity(identityType, req.prior_identity, 'prior identity');
      const out = await engine.planWithNotices(
        req.type_name,
        prior,
        proposed,
        config,
        decodePrivate(req.prior_private),
        priorIdentity,
        { deferralAllowed: req.client_capabilities?.deferral_allowed === true },
      );
      return {
        planned_state: encodeDynamic(type, out.planned),
        requires_replace: out.requiresReplace.map(pathToProto),
        planned_private: encodePrivate(out.plannedPrivate),
        diagnostics: diagnosticsToProto(out.diags.items),
        legacy_type_system: false,
        ...identityField('planned_identity', identityType, out.identity),
      };
    }),
    ApplyResourceChange: guarded('ApplyResourceChange', diagsOnly, async (req, call) => {
      const schema = resourceSchema(req.type_name);
      const type = typeOf(schema);
      const prior = decodeObject(schema, req.prior_state, 'prior state', STATE);
      const planned = decodeObject(schema, req.planned_state, 'planned state', CONFIG);
      const config = decodeObject(schema, req.config, 'configuration', CONFIG);
      if (prior === null && planned === null)
        throw new BadRequest(
          'Both the prior and the planned state are null: there is nothing to create, update or delete.',
        );
      const identityType = engine.identityTypeOf(req.type_name);
      const plannedIdentity = decodeIdentity(identityType, req.planned_identity, 'planned identity');
      // A caller that went away (Terraform killed, or Pulumi's engine behind the bridge) never gets
      // the result: the record of a create then stays for the next run to adopt.
      const out = await engine.applyWithIdentity(
        req.type_name,
        prior,
        planned,
        decodePrivate(req.planned_private),
        config,
        plannedIdentity,
        call.signal,
      );
      return {
        new_state: encodeDynamic(type, out.state),
        private: encodePrivate(out.private),
        diagnostics: diagnosticsToProto(out.diags.items),
        legacy_type_system: false,
        ...identityField('new_identity', identityType, out.identity),
      };
    }),
    ImportResourceState: guarded('ImportResourceState', diagsOnly, async (req) => {
      const type = typeOf(resourceSchema(req.type_name));
      const identityType = engine.identityTypeOf(req.type_name);
      // An `import` block gives an id or an identity (Terraform 1.12 and later), never both.
      const identity = decodeIdentity(identityType, req.identity, 'import identity');
      const id = String(req.id ?? '');
      if (identity !== null && id !== '')
        throw new BadRequest(
          'The import request gives both an id and an identity; an import names the object by one of them.',
        );
      const out = await engine.importWithIdentity(req.type_name, identity !== null ? { identity } : { id });
      const imported =
        out.state === null
          ? []
          : [
              {
                type_name: req.type_name,
                state: encodeDynamic(type, out.state),
                private: encodePrivate(out.private),
                ...identityField('identity', identityType, out.identity),
              },
            ];
      return { imported_resources: imported, diagnostics: diagnosticsToProto(out.diags.items) };
    }),
    ReadDataSource: guarded('ReadDataSource', diagsOnly, async (req) => {
      const schema = dataSourceSchema(req.type_name);
      const type = typeOf(schema);
      const config = decodeObject(schema, req.config, 'data source configuration', CONFIG) ?? {};
      const out = await engine.readDataSource(req.type_name, config);
      return {
        ...(out.state ? { state: encodeDynamic(type, out.state) } : {}),
        diagnostics: diagnosticsToProto(out.diags.items),
      };
    }),
    // Provider-written configuration (protocol 6.10): the state of an object Terraform lists or
    // imports → its configuration. Terraform 1.14.0 sends no state (engine/resources/generate-config.ts).
    GenerateResourceConfig: guarded('GenerateResourceConfig', diagsOnly, (req) => {
      const schema = resourceSchema(req.type_name);
      const state = decodeObject(schema, req.state, 'state', STATE);
      const out = engine.generateResourceConfig(req.type_name, state);
      return {
        ...(out.diags.hasErrors ? {} : { config: encodeDynamic(typeOf(schema), out.config) }),
        diagnostics: diagnosticsToProto(out.diags.items),
      };
    }),
    StopProvider: guarded(
      'StopProvider',
      () => ({ Error: 'stop failed' }),
      () => {
        engine.stop();
        return { Error: '' };
      },
    ),
    // A `moved` block from another resource type (engine/resources/resource-moves.ts). The source's state and
    // identity come as JSON, in a schema this provider may not know; the private state is the source
    // provider's, and the target's starts empty.
    MoveResourceState: guarded('MoveResourceState', diagsOnly, (req) => {
      const type = typeOf(resourceSchema(req.target_type_name));
      const version = Number(req.source_schema_version ?? 0);
      if (!Number.isSafeInteger(version) || version < 0)
        throw new BadRequest(`The source state has schema version ${req.source_schema_version}, which is not valid.`);
      const json = (raw: Msg | null | undefined) =>
        raw?.json && raw.json.length > 0 ? Buffer.from(raw.json).toString('utf8') : null;
      const state = json(req.source_state);
      if (state === null) throw new BadRequest('The state to move is empty: Terraform sends it as JSON.');
      const out = engine.moves.moveResourceState({
        sourceProvider: String(req.source_provider_address ?? ''),
        sourceType: String(req.source_type_name ?? ''),
        sourceSchemaVersion: version,
        sourceState: state,
        sourceIdentity: json(req.source_identity),
        targetType: req.target_type_name,
      });
      return {
        ...(out.state === null ? {} : { target_state: encodeDynamic(type, out.state) }),
        target_private: EMPTY_BYTES,
        diagnostics: diagnosticsToProto(out.diags.items),
        ...identityField('target_identity', engine.identityTypeOf(req.target_type_name), out.identity),
      };
    }),
    UpgradeResourceIdentity: guarded('UpgradeResourceIdentity', diagsOnly, (req) => {
      resourceSchema(req.type_name);
      const version = Number(req.version ?? 0);
      if (!Number.isSafeInteger(version) || version < 0)
        throw new BadRequest(`The stored identity has version ${req.version}, which is not a valid version.`);
      const raw =
        req.raw_identity?.json && req.raw_identity.json.length > 0
          ? Buffer.from(req.raw_identity.json).toString('utf8')
          : null;
      if (raw === null) throw new BadRequest('The stored identity to upgrade is empty: Terraform sends it as JSON.');
      const out = engine.upgradeResourceIdentity(req.type_name, version, raw);
      return {
        ...identityField('upgraded_identity', engine.identityTypeOf(req.type_name), out.identity),
        diagnostics: diagnosticsToProto(out.diags.items),
      };
    }),
    // Every failure, a hostile request's too, is a function error at the call or at its argument.
    CallFunction: guarded(
      'CallFunction',
      () => ({ error: { text: 'the provider could not call the function' } }),
      (req) => {
        const name = String(req.name ?? '');
        const given: Msg[] = Array.isArray(req.arguments) ? req.arguments : [];
        const parameters = given.map((_, i) => engine.functions.parameterAt(name, i));
        const args: Value[] = [];
        // No such function, or more arguments than it takes: its own check says so, with nothing decoded.
        if (parameters.some((p) => p === undefined))
          return functionResponse(
            engine,
            name,
            given.map(() => null),
          );
        for (const [i, dv] of given.entries()) {
          try {
            args.push(decodeDynamic(parameters[i]!.type, dv, `argument ${JSON.stringify(parameters[i]!.name)}`));
          } catch (err) {
            const text = (err instanceof Error ? err.message : String(err)).replace(/\.+$/, '');
            return { error: { text, function_argument: i } };
          }
        }
        return functionResponse(engine, name, args);
      },
    ),
    ValidateEphemeralResourceConfig: guarded('ValidateEphemeralResourceConfig', diagsOnly, (req) => {
      const config =
        decodeObject(
          ephemeralSchema(req.type_name),
          req.config,
          'ephemeral resource configuration',
          UNVALIDATED_CONFIG,
        ) ?? {};
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
      return {
        ...(out.renewAt ? { renew_at: timestamp(out.renewAt) } : {}),
        private: encodePrivate(out.private),
        diagnostics: diagnosticsToProto(out.diags.items),
      };
    }),
    CloseEphemeralResource: guarded('CloseEphemeralResource', diagsOnly, async (req) => {
      ephemeralSchema(req.type_name);
      return {
        diagnostics: diagnosticsToProto(
          (await engine.closeEphemeralResource(req.type_name, decodePrivate(req.private))).items,
        ),
      };
    }),
    ValidateListResourceConfig: guarded('ValidateListResourceConfig', diagsOnly, (req) => {
      const schema = listSchema(req.type_name);
      const config = decodeObject(schema, req.config, 'list configuration', UNVALIDATED_CONFIG) ?? emptyObject(schema);
      const diags = engine.validateListResourceConfig(req.type_name, config);
      // Terraform checks these itself and does not send them yet; the protocol allows it.
      const limit = decodeDynamic(NUMBER, req.limit, 'list limit');
      if (
        limit !== null &&
        !(limit instanceof Unknown) &&
        !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 0)
      ) {
        diags.error(
          'Invalid limit argument',
          'The given "limit" argument value is unsuitable: must be a whole number greater than or equal to zero.',
        );
      }
      decodeDynamic(BOOL, req.include_resource_object, 'include_resource value');
      return { diagnostics: diagnosticsToProto(diags.items) };
    }),
    ...actionRpcs(engine, guarded, ACTION_KIT),
  } satisfies Record<ServedUnaryRpc, RpcHandler>;
}

/** A request naming a type the provider does not declare, in the engine's words. */
function unknownTypeRequest<C>(engine: ProviderEngine<C>, kind: TypeKind, name: string): BadRequest {
  return new BadRequest(unknownTypeDetail(engine.def.name, kind, name));
}

/**
 * The server-streaming RPCs (ListResource): each result is one event; a failure is an event with an
 * error diagnostic, which ends the stream (Terraform stops reading at an error).
 */
export function providerStreamService<C>(engine: ProviderEngine<C>, log: Logger): Record<string, StreamHandler> {
  return {
    ListResource: async function* (req, call) {
      const started = performance.now();
      const rpcLog = log.child({
        tf_rpc: 'ListResource',
        ...(req.type_name ? { tf_resource_type: String(req.type_name) } : {}),
      });
      let events = 0;
      try {
        const schema = engine.listResourceSchema(req.type_name);
        if (!schema) throw unknownTypeRequest(engine, 'list resource', String(req.type_name ?? ''));
        const config = decodeObject(schema, req.config, 'list configuration', CONFIG) ?? emptyObject(schema);
        const resourceType = impliedType(engine.resourceSchema(req.type_name)!.block);
        const identityType = engine.identityTypeOf(req.type_name)!;
        const limit = Number(req.limit ?? 0);
        const listing = engine.listResource(req.type_name, config, {
          includeResource: req.include_resource_object === true,
          limit: Number.isSafeInteger(limit) ? limit : 0,
          signal: call.signal,
        });
        for await (const event of listing) {
          events++;
          if (event.diags) {
            yield { diagnostic: diagnosticsToProto(event.diags.items) };
            if (event.diags.hasErrors) return;
            continue;
          }
          const { identity, displayName, state } = event.result;
          yield {
            identity: { identity_data: encodeDynamic(identityType, identity) },
            display_name: displayName,
            ...(state ? { resource_object: encodeDynamic(resourceType, state) } : {}),
            diagnostic: [],
          };
        }
      } catch (err) {
        const d =
          err instanceof BadRequest
            ? { severity: 'error' as const, summary: 'Invalid request from Terraform', detail: err.message }
            : diagnosticFromError('Provider error during ListResource', err);
        rpcLog.error('RPC failed', { error: d.detail });
        yield { diagnostic: diagnosticsToProto([d]) };
      } finally {
        rpcLog.trace('RPC done', {
          tf_req_duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
          events,
        });
      }
    },
    ...actionStreamRpcs(engine, log, ACTION_KIT),
  } satisfies Record<ServedStreamRpc, StreamHandler>;
}

/** What the action RPCs (./action-rpcs.ts) take from this table besides its guard: decoding and errors. */
const ACTION_KIT: ActionRpcKit = {
  decodeConfig: (schema, value, validated) =>
    decodeObject(schema, value, 'action configuration', validated ? CONFIG : UNVALIDATED_CONFIG) ?? emptyObject(schema),
  badRequest: (message) => new BadRequest(message),
  failure: (rpc, err) =>
    err instanceof BadRequest
      ? { severity: 'error', summary: 'Invalid request from Terraform', detail: err.message }
      : diagnosticFromError(`Provider error during ${rpc}`, err),
  toProto: diagnosticsToProto,
};

/** A configuration block that is null on the wire: Terraform means every argument unset. */
function emptyObject(schema: Schema): ObjectValue {
  const out: ObjectValue = {};
  for (const name of Object.keys(schema.block.attributes)) out[name] = null;
  for (const [name, nb] of Object.entries(schema.block.blockTypes))
    out[name] = nb.nesting === 'single' ? null : nb.nesting === 'map' ? {} : [];
  return out;
}
