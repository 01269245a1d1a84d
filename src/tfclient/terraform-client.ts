/**
 * A Terraform-side client: launches a provider executable as go-plugin does and drives it as
 * Terraform core would, computing proposed new states itself and applying Terraform's own plan,
 * apply and read checks (docs/protocol.md, "Terraform's checks"), so tests catch what Terraform
 * would reject. It never uses the provider's engine: it is an independent judge.
 */
import type { Schema, SchemaBlock } from '../../packages/framework/src/schema/block.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import type { ObjectValue, Value } from '../../packages/framework/src/schema/value.js';
import { decodeMsgpack, encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { plainToValue } from '../../packages/framework/src/schema/model.js';
import { formatPath, type AttributePath } from '../../packages/framework/src/schema/path.js';
import {
  proposedNew,
  checkPlannedState,
  checkApplyResult,
  checkReadResult,
} from '../../packages/framework/src/engine/checks/index.js';
import { objectOf, typeFromJSON, type CtyType } from '../../packages/framework/src/schema/cty-type.js';
import { isWhollyKnown } from '../../packages/framework/src/schema/value-ops.js';
import { status as grpcStatus } from '@grpc/grpc-js';
import { launchProvider, type LaunchedProvider } from './launch.js';
import { schemaFromProto } from '../../packages/framework/src/schema/schema-from-proto.js';

type Msg = Record<string, any>;

export interface WireDiagnostic {
  severity: 'error' | 'warning' | 'invalid';
  summary: string;
  detail: string;
  path: string;
}

/** An RPC answered with error diagnostics, or a result Terraform would reject. */
export class ProviderCallError extends Error {
  constructor(
    readonly rpc: string,
    readonly diagnostics: WireDiagnostic[],
  ) {
    super(
      `${rpc}: ${diagnostics.map((d) => `${d.summary}${d.path ? ` (at ${d.path})` : ''}: ${d.detail}`).join('; ')}`,
    );
  }
}

export interface PlannedChange {
  planned: ObjectValue | null;
  requiresReplace: AttributePath[];
  plannedPrivate: Buffer;
  /**
   * The planned identity (Terraform 1.12 and later send it to ApplyResourceChange); null when the provider gave none.
   */
  plannedIdentity?: ObjectValue | null;
}

/** A resource type's identity schema as Terraform holds it: a version and an object type. */
export interface IdentitySchema {
  version: number;
  /** Attribute → its type, and whether an import by identity needs it. */
  attributes: Map<string, { type: CtyType; requiredForImport: boolean; description: string }>;
  type: CtyType;
}

/** One result of a list resource, as Terraform 1.14's ListResource loop keeps it. */
export interface ListResult {
  displayName: string;
  identity: ObjectValue;
  /** The resource object, when asked for with `includeResource`. */
  state: ObjectValue | null;
}

/** Terraform's default `limit` of a `list` block. */
export const DEFAULT_LIST_LIMIT = 100;

export class TerraformClient {
  private schemas!: {
    provider: Schema;
    resources: Map<string, Schema>;
    dataSources: Map<string, Schema>;
    ephemerals: Map<string, Schema>;
    lists: Map<string, Schema>;
    identities: Map<string, IdentitySchema>;
  };
  /** Every diagnostic received, warnings included, for tests to inspect. */
  readonly received: WireDiagnostic[] = [];
  /**
   * The identity Terraform stores beside each state this client returned (Terraform 1.12 and later
   * keep them together): sent back with that state as the current or prior identity.
   */
  private readonly identities = new WeakMap<ObjectValue, ObjectValue>();

  private constructor(readonly plugin: LaunchedProvider) {}

  static async start(executable: string, env: Record<string, string> = {}): Promise<TerraformClient> {
    const client = new TerraformClient(await launchProvider(executable, { env }));
    try {
      await client.loadSchema();
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  get providerSchema(): Schema {
    return this.schemas.provider;
  }
  resourceSchema(type: string): Schema {
    const s = this.schemas.resources.get(type);
    if (!s) throw new Error(`the provider has no resource type ${type}`);
    return s;
  }
  dataSourceSchema(type: string): Schema {
    const s = this.schemas.dataSources.get(type);
    if (!s) throw new Error(`the provider has no data source ${type}`);
    return s;
  }

  ephemeralSchema(type: string): Schema {
    const s = this.schemas.ephemerals.get(type);
    if (!s) throw new Error(`the provider has no ephemeral resource ${type}`);
    return s;
  }

  /** The filters (`config` block) of a list resource, as the provider declares them. */
  listSchema(type: string): Schema {
    const s = this.schemas.lists.get(type);
    if (!s) throw new Error(`the provider has no list resource ${type}`);
    return s;
  }

  get listResourceTypes(): string[] {
    return [...this.schemas.lists.keys()];
  }

  identitySchema(type: string): IdentitySchema | undefined {
    return this.schemas.identities.get(type);
  }

  /** The identity stored beside a state this client returned (undefined: none). */
  identityOf(state: ObjectValue): ObjectValue | undefined {
    return this.identities.get(state);
  }

  /** Stores `identity` beside `state`, as a state file written by Terraform 1.12 holds it. */
  rememberIdentity(state: ObjectValue, identity: ObjectValue): void {
    this.identities.set(state, identity);
  }

  async call(rpc: string, request: Msg): Promise<Msg> {
    const { response, diagnostics } = await this.callReporting(rpc, request);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new ProviderCallError(rpc, errors);
    return response;
  }

  /** An RPC whose error diagnostics are returned rather than thrown (a diagnostic without severity still throws). */
  async callReporting(rpc: string, request: Msg): Promise<{ response: Msg; diagnostics: WireDiagnostic[] }> {
    const res = await this.plugin.call(rpc as Parameters<LaunchedProvider['call']>[0], request);
    const diags: WireDiagnostic[] = (res.diagnostics ?? []).map(wireDiagnostic);
    this.received.push(...diags);
    const invalid = diags.filter((d) => d.severity === 'invalid');
    if (invalid.length > 0)
      throw new ProviderCallError(
        rpc,
        invalid.map((d) => ({ ...d, summary: `diagnostic without severity: ${d.summary}` })),
      );
    return { response: res, diagnostics: diags };
  }

  private async loadSchema(): Promise<void> {
    const res = await this.call('GetProviderSchema', {});
    if (!res.provider) throw new Error('GetProviderSchema: missing provider schema');
    const map = (m: Record<string, Msg> | undefined, kind: string) =>
      new Map(Object.entries(m ?? {}).map(([k, s]) => [k, schemaFromProto(s, `${kind} ${k}`)] as const));
    this.schemas = {
      provider: schemaFromProto(res.provider, 'provider'),
      resources: map(res.resource_schemas, 'resource'),
      dataSources: map(res.data_source_schemas, 'data source'),
      ephemerals: map(res.ephemeral_resource_schemas, 'ephemeral resource'),
      lists: map(res.list_resource_schemas, 'list resource'),
      identities: new Map(),
    };
    // Terraform 1.12 and later ask right after GetProviderSchema, and tolerate UNIMPLEMENTED only.
    let identities: Msg;
    try {
      identities = await this.call('GetResourceIdentitySchemas', {});
    } catch (err) {
      if ((err as { code?: unknown }).code === grpcStatus.UNIMPLEMENTED) return;
      throw err;
    }
    for (const [type, msg] of Object.entries((identities.identity_schemas ?? {}) as Record<string, Msg>)) {
      if (!this.schemas.resources.has(type)) continue; // Terraform only looks up identities of resource types it has
      this.schemas.identities.set(type, identitySchemaFromProto(msg, type));
    }
  }

  /** Builds a full config object from plain values: absent attributes null, absent blocks empty. */
  config(block: SchemaBlock, plain: Record<string, unknown>): ObjectValue {
    return configValue(block, plain);
  }

  async validateProvider(config: Record<string, unknown>): Promise<void> {
    const value = configValue(this.schemas.provider.block, config);
    await this.call('ValidateProviderConfig', { config: dyn(this.schemas.provider.block, value) });
  }

  async configure(config: Record<string, unknown>, terraformVersion = '1.11.4'): Promise<void> {
    const value = configValue(this.schemas.provider.block, config);
    const block = this.schemas.provider.block;
    await this.call('ValidateProviderConfig', { config: dyn(block, value) });
    await this.call('ConfigureProvider', {
      terraform_version: terraformVersion,
      config: dyn(block, value),
      client_capabilities: { deferral_allowed: false },
    });
  }

  /**
   * ValidateResourceConfig as Terraform 1.11 sends it; `writeOnlyAllowed: false` is what older Terraform (no
   * capabilities) means.
   */
  async validateResource(
    type: string,
    config: ObjectValue,
    options: { writeOnlyAllowed?: boolean } = {},
  ): Promise<void> {
    const capabilities =
      options.writeOnlyAllowed === false ? {} : { client_capabilities: { write_only_attributes_allowed: true } };
    await this.call('ValidateResourceConfig', {
      type_name: type,
      config: dyn(this.resourceSchema(type).block, config),
      ...capabilities,
    });
  }

  /** PlanResourceChange with a proposed new state computed as Terraform does, plus Terraform's checks. */
  async plan(
    type: string,
    prior: ObjectValue | null,
    config: ObjectValue | null,
    priorPrivate: Buffer = Buffer.alloc(0),
  ): Promise<PlannedChange> {
    const block = this.resourceSchema(type).block;
    const proposed = config === null ? null : (proposedNew(block, prior, config) as ObjectValue);
    const res = await this.call('PlanResourceChange', {
      type_name: type,
      prior_state: dyn(block, prior),
      proposed_new_state: dyn(block, proposed),
      config: dyn(block, config),
      prior_private: priorPrivate,
      ...this.identityRequest('prior_identity', type, prior === null ? undefined : this.identities.get(prior)),
    });
    const planned = undyn(block, res.planned_state) as ObjectValue | null;
    const requiresReplace = (res.requires_replace ?? []).map(pathFromProto);
    // Terraform lets a create or a replacement plan an identity it does not know yet; nothing else.
    const creatingOrReplacing = prior === null || requiresReplace.length > 0;
    const plannedIdentity = this.identityResponse(
      'PlanResourceChange',
      type,
      res.planned_identity,
      !creatingOrReplacing,
    );
    if (config !== null)
      failOn('PlanResourceChange', 'Provider produced invalid plan', checkPlannedState(block, prior, config, planned));
    return {
      planned,
      requiresReplace,
      plannedPrivate: Buffer.from(res.planned_private ?? []),
      plannedIdentity: plannedIdentity ?? null,
    };
  }

  async apply(
    type: string,
    prior: ObjectValue | null,
    change: PlannedChange,
    config: ObjectValue | null,
  ): Promise<{ state: ObjectValue | null; private: Buffer }> {
    const { state, private: priv, errors } = await this.applyKeepingState(type, prior, change, config);
    if (errors.length > 0) throw new ProviderCallError('ApplyResourceChange', errors);
    return { state, private: priv };
  }

  /**
   * ApplyResourceChange as Terraform takes a failed one: the state returned is kept (a created
   * object tainted) beside the errors. Without errors, the result must pass Terraform's checks.
   */
  async applyKeepingState(
    type: string,
    prior: ObjectValue | null,
    change: PlannedChange,
    config: ObjectValue | null,
  ): Promise<{ state: ObjectValue | null; private: Buffer; errors: WireDiagnostic[] }> {
    const block = this.resourceSchema(type).block;
    const { response: res, diagnostics } = await this.callReporting('ApplyResourceChange', {
      type_name: type,
      prior_state: dyn(block, prior),
      planned_state: dyn(block, change.planned),
      config: dyn(block, config),
      planned_private: change.plannedPrivate,
      ...this.identityRequest('planned_identity', type, change.plannedIdentity ?? undefined),
    });
    const state = undyn(block, res.new_state) as ObjectValue | null;
    const identity = this.identityResponse('ApplyResourceChange', type, res.new_identity, true);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length === 0)
      failOn(
        'ApplyResourceChange',
        'Provider produced inconsistent result after apply',
        checkApplyResult(block, change.planned, state, change.planned === null),
      );
    if (state !== null && identity) this.identities.set(state, identity);
    return { state, private: Buffer.from(res.private ?? []), errors };
  }

  async read(
    type: string,
    state: ObjectValue,
    priv: Buffer = Buffer.alloc(0),
  ): Promise<{ state: ObjectValue | null; private: Buffer }> {
    const block = this.resourceSchema(type).block;
    const res = await this.call('ReadResource', {
      type_name: type,
      current_state: dyn(block, state),
      private: priv,
      ...this.identityRequest('current_identity', type, this.identities.get(state)),
    });
    const fresh = undyn(block, res.new_state) as ObjectValue | null;
    const identity = this.identityResponse('ReadResource', type, res.new_identity, true);
    if (fresh !== null) failOn('ReadResource', 'Provider produced invalid object', checkReadResult(block, fresh));
    if (fresh !== null && identity) this.identities.set(fresh, identity);
    return { state: fresh, private: Buffer.from(res.private ?? []) };
  }

  async upgrade(type: string, version: number, stateJson: string): Promise<ObjectValue> {
    const block = this.resourceSchema(type).block;
    const res = await this.call('UpgradeResourceState', {
      type_name: type,
      version,
      raw_state: { json: Buffer.from(stateJson) },
    });
    const state = undyn(block, res.upgraded_state) as ObjectValue;
    failOn('UpgradeResourceState', 'Invalid resource state upgrade', checkReadResult(block, state));
    return state;
  }

  /** ImportResourceState then ReadResource, with Terraform's import rules (docs/protocol.md, "Importing"). */
  async importState(type: string, id: string): Promise<ObjectValue> {
    return this.importTarget(type, { id });
  }

  /**
   * An `import` block with `identity = {...}` (Terraform 1.12 and later): ImportResourceState with the
   * identity instead of an id, then ReadResource with the identity the import returned. Attributes
   * left out are null, as Terraform sends them.
   */
  async importByIdentity(type: string, identity: Record<string, string | null>): Promise<ObjectValue> {
    const schema = this.identitySchema(type);
    if (!schema) throw new Error(`the provider declares no identity for ${type}`);
    const value: ObjectValue = {};
    for (const [name, a] of schema.attributes) {
      if (a.requiredForImport && (identity[name] ?? null) === null)
        throw new Error(`Terraform requires identity attribute ${name} of ${type} in an import block`);
      value[name] = identity[name] ?? null;
    }
    for (const name of Object.keys(identity))
      if (!schema.attributes.has(name)) throw new Error(`${type} has no identity attribute ${name}`);
    return this.importTarget(type, { identity: value });
  }

  private async importTarget(type: string, target: { id: string } | { identity: ObjectValue }): Promise<ObjectValue> {
    const block = this.resourceSchema(type).block;
    const byIdentity = 'identity' in target;
    const res = await this.call('ImportResourceState', {
      type_name: type,
      ...(byIdentity ? this.identityRequest('identity', type, target.identity) : { id: target.id }),
    });
    const imported: Msg[] = res.imported_resources ?? [];
    if (imported.length === 0)
      throw new ProviderCallError('ImportResourceState', [diag('Import returned no resources')]);
    if (imported.length > 1)
      throw new ProviderCallError('ImportResourceState', [diag('Multiple import states not supported')]);
    if (imported[0]!.type_name !== type)
      throw new ProviderCallError('ImportResourceState', [diag(`Import returned type ${imported[0]!.type_name}`)]);
    const identity = this.identityResponse('ImportResourceState', type, imported[0]!.identity, false);
    // Terraform: "Providers are supposed to return an identity when importing by identity".
    if (byIdentity && !identity)
      throw new ProviderCallError('ImportResourceState', [diag(`import of ${type} didn't return an identity`)]);
    const state = undyn(block, imported[0]!.state) as ObjectValue | null;
    if (state === null) throw new ProviderCallError('ImportResourceState', [diag('Import returned null resource')]);
    if (identity) this.identities.set(state, identity);
    const read = await this.read(type, state, Buffer.from(imported[0]!.private ?? []));
    if (read.state === null)
      throw new ProviderCallError('ReadResource', [diag('Cannot import non-existent remote object')]);
    return read.state;
  }

  /** UpgradeResourceIdentity, which Terraform calls for a stored identity of another version. */
  async upgradeIdentity(type: string, version: number, identityJson: string): Promise<ObjectValue | null> {
    const res = await this.call('UpgradeResourceIdentity', {
      type_name: type,
      version,
      raw_identity: { json: Buffer.from(identityJson) },
    });
    return this.identityResponse('UpgradeResourceIdentity', type, res.upgraded_identity, true);
  }

  /**
   * A `list` block of a `.tfquery.hcl` file, as `terraform query` (1.14 and later) runs it:
   * ValidateListResourceConfig with the `config` block, then the ListResource stream, read as
   * Terraform reads it: at most `limit` results (then the stream is cancelled), an error ends it,
   * a warning without identity is skipped, every result must carry an identity.
   */
  async list(
    type: string,
    filters: Record<string, unknown> | null,
    options: { includeResource?: boolean; limit?: number } = {},
  ): Promise<ListResult[]> {
    const listBlock = this.listSchema(type).block;
    const resourceBlock = this.resourceSchema(type).block;
    const identity = this.identitySchema(type);
    if (!identity)
      throw new ProviderCallError('ListResource', [
        diag(
          `Identity schema not found for resource type ${type}; this is a bug in the provider - please report it there`,
        ),
      ]);
    // A `list` block without `config` still sends an object, every attribute null.
    const config = dyn(listBlock, configValue(listBlock, filters ?? {}));
    await this.call('ValidateListResourceConfig', { type_name: type, config });
    const includeResource = options.includeResource ?? false;
    const limit = options.limit ?? DEFAULT_LIST_LIMIT;
    const stream = this.plugin.serverStream('ListResource', {
      type_name: type,
      config,
      include_resource_object: includeResource,
      limit,
    });
    const results: ListResult[] = [];
    try {
      for await (const event of stream as AsyncIterable<Msg>) {
        if (results.length >= limit) break;
        const diags: WireDiagnostic[] = (event.diagnostic ?? []).map(wireDiagnostic);
        this.received.push(...diags);
        const errors = diags.filter((d) => d.severity !== 'warning');
        if (errors.length > 0) throw new ProviderCallError('ListResource', errors);
        if (diags.length > 0 && !hasData(event.identity)) continue;
        if (!hasData(event.identity))
          throw new ProviderCallError('ListResource', [
            diag(`missing identity data in ListResource event for ${type}`),
          ]);
        const id = undynType(identity.type, event.identity.identity_data) as ObjectValue;
        failOn(
          'ListResource',
          'Provider produced invalid identity',
          isWhollyKnown(identity.type, id)
            ? []
            : [{ path: [], message: 'The listed identity contains unknown values' }],
        );
        let state: ObjectValue | null = null;
        if (includeResource && event.resource_object) {
          state = undyn(resourceBlock, event.resource_object) as ObjectValue | null;
          // Stricter than Terraform, which only decodes it: the object becomes a state once imported.
          if (state !== null)
            failOn('ListResource', 'Provider produced invalid object', checkReadResult(resourceBlock, state));
          if (state !== null) this.identities.set(state, id);
        }
        results.push({ displayName: String(event.display_name ?? ''), identity: id, state });
      }
    } finally {
      stream.cancel();
    }
    return results;
  }

  /**
   * GenerateResourceConfig as Terraform 1.14.1 and later send it (internal/plugin6/grpc_provider.go):
   * the object's state, msgpack at the resource's type; `null` sends none, as 1.14.0 does. The answer
   * is decoded at that type, which is all Terraform checks before it writes HCL (internal/genconfig).
   * Stricter, as the written HCL would fail later or Terraform would panic: the configuration must be
   * an object (a null one panics genconfig), wholly known, and hold no value for a computed-only
   * attribute (Terraform would write it, and the plan refuse it).
   */
  async generateResourceConfig(
    type: string,
    state: ObjectValue | null,
  ): Promise<{ config: ObjectValue; warnings: WireDiagnostic[] }> {
    const block = this.resourceSchema(type).block;
    const { response, diagnostics } = await this.callReporting('GenerateResourceConfig', {
      type_name: type,
      ...(state === null ? {} : { state: dyn(block, state) }),
    });
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new ProviderCallError('GenerateResourceConfig', errors);
    const config = undyn(block, response.config) as ObjectValue | null;
    if (config === null)
      throw new ProviderCallError('GenerateResourceConfig', [diag('the configuration is null (genconfig panics)')]);
    failOn('GenerateResourceConfig', 'Invalid generated configuration', [
      ...(isWhollyKnown(impliedType(block), config) ? [] : [{ path: [], message: 'it holds unknown values' }]),
      ...computedOnlyValues(block, config),
    ]);
    return { config, warnings: diagnostics };
  }

  /** An identity for a request field: Terraform sends one only when it has it. */
  private identityRequest(field: string, type: string, identity: ObjectValue | undefined): Msg {
    const schema = this.identitySchema(type);
    if (!schema || identity === undefined) return {};
    return { [field]: { identity_data: { msgpack: encodeMsgpack(schema.type, identity) } } };
  }

  /** A returned identity, decoded with the identity schema and judged as Terraform judges it. */
  private identityResponse(
    rpc: string,
    type: string,
    data: Msg | null | undefined,
    mustBeKnown: boolean,
  ): ObjectValue | null {
    if (!hasData(data)) return null;
    const schema = this.identitySchema(type);
    if (!schema) throw new ProviderCallError(rpc, [diag(`unknown identity type ${type}`)]);
    const identity = undynType(schema.type, data!.identity_data) as ObjectValue | null;
    if (identity === null) return null;
    if (mustBeKnown && !isWhollyKnown(schema.type, identity)) {
      throw new ProviderCallError(rpc, [
        diag('Provider produced invalid identity', `Provider returned an identity with unknown values for ${type}.`),
      ]);
    }
    return identity;
  }

  async readData(type: string, config: ObjectValue): Promise<ObjectValue> {
    const block = this.dataSourceSchema(type).block;
    await this.call('ValidateDataResourceConfig', { type_name: type, config: dyn(block, config) });
    const res = await this.call('ReadDataSource', { type_name: type, config: dyn(block, config) });
    const state = undyn(block, res.state) as ObjectValue | null;
    if (state === null) throw new ProviderCallError('ReadDataSource', [diag('Provider produced null object')]);
    failOn('ReadDataSource', 'Provider produced invalid object', checkReadResult(block, state));
    return state;
  }

  /**
   * ValidateEphemeralResourceConfig then OpenEphemeralResource, as Terraform runs them; the result
   * must be wholly known and conform to the schema.
   */
  async openEphemeral(
    type: string,
    config: ObjectValue,
  ): Promise<{ result: ObjectValue; renewAt?: Date; private: Buffer }> {
    const block = this.ephemeralSchema(type).block;
    await this.call('ValidateEphemeralResourceConfig', { type_name: type, config: dyn(block, config) });
    const res = await this.call('OpenEphemeralResource', {
      type_name: type,
      config: dyn(block, config),
      client_capabilities: { deferral_allowed: false },
    });
    const result = undyn(block, res.result) as ObjectValue | null;
    if (result === null) throw new ProviderCallError('OpenEphemeralResource', [diag('Provider produced null result')]);
    failOn('OpenEphemeralResource', 'Provider produced invalid ephemeral result', checkReadResult(block, result));
    const renewAt = res.renew_at
      ? new Date(Number(res.renew_at.seconds) * 1000 + Math.floor(Number(res.renew_at.nanos ?? 0) / 1e6))
      : undefined;
    return { result, ...(renewAt ? { renewAt } : {}), private: Buffer.from(res.private ?? []) };
  }

  async renewEphemeral(type: string, priv: Buffer): Promise<{ renewAt?: Date; private: Buffer }> {
    const res = await this.call('RenewEphemeralResource', { type_name: type, private: priv });
    const renewAt = res.renew_at ? new Date(Number(res.renew_at.seconds) * 1000) : undefined;
    return { ...(renewAt ? { renewAt } : {}), private: Buffer.from(res.private ?? []) };
  }

  /** CloseEphemeralResource; its warnings are in `received`. */
  async closeEphemeral(type: string, priv: Buffer): Promise<void> {
    await this.call('CloseEphemeralResource', { type_name: type, private: priv });
  }

  async stop(): Promise<string> {
    const res = await this.call('StopProvider', {});
    return String(res.Error ?? '');
  }

  async close(): Promise<void> {
    await this.plugin.shutdown();
  }
}

function diag(summary: string, detail = ''): WireDiagnostic {
  return { severity: 'error', summary, detail, path: '' };
}

function wireDiagnostic(d: Msg): WireDiagnostic {
  return {
    severity: d.severity === 1 ? 'error' : d.severity === 2 ? 'warning' : 'invalid',
    summary: d.summary ?? '',
    detail: d.detail ?? '',
    path: pathText(d.attribute),
  };
}

/** Whether a ResourceIdentityData holds a value. */
const hasData = (data: Msg | null | undefined): boolean => (data?.identity_data?.msgpack?.length ?? 0) > 0;

/**
 * An identity schema as Terraform loads it (providers.IdentitySchema), with the checks Terraform
 * makes when it loads a provider: a version ≥ 0; each attribute required or optional for import,
 * not both; no map, set or object attributes.
 */
export function identitySchemaFromProto(msg: Msg, type: string): IdentitySchema {
  const version = Number(msg.version ?? 0);
  if (version < 0)
    throw new Error(`provider has invalid negative identity schema version for managed resource type "${type}"`);
  const attributes: IdentitySchema['attributes'] = new Map();
  for (const a of (msg.identity_attributes ?? []) as Msg[]) {
    const at = `identity of ${type}: attribute ${JSON.stringify(a.name)}`;
    if (!/^[a-z0-9_]+$/.test(a.name)) throw new Error(`${at}: invalid name`);
    if (attributes.has(a.name)) throw new Error(`${at}: duplicate`);
    if (!a.required_for_import && !a.optional_for_import)
      throw new Error(`${at}: must set Optional, Required or Computed`);
    if (a.required_for_import && a.optional_for_import) throw new Error(`${at}: cannot set both Optional and Required`);
    const t = typeFromJSON(JSON.parse(Buffer.from(a.type).toString('utf8')));
    if (t.kind === 'map' || t.kind === 'set' || t.kind === 'object')
      throw new Error(`${at}: is a ${t.kind}, which is not allowed in identity schemas`);
    attributes.set(a.name, { type: t, requiredForImport: !!a.required_for_import, description: a.description ?? '' });
  }
  return { version, attributes, type: objectOf(Object.fromEntries([...attributes].map(([n, a]) => [n, a.type]))) };
}

/** Where a configuration value sets a computed-only attribute, at any depth. */
function computedOnlyValues(
  block: SchemaBlock,
  v: ObjectValue,
  at: AttributePath = [],
): { path: AttributePath; message: string }[] {
  const found: { path: AttributePath; message: string }[] = [];
  for (const [name, a] of Object.entries(block.attributes))
    if (a.computed && !a.optional && (v[name] ?? null) !== null)
      found.push({ path: [...at, { attr: name }], message: 'a computed-only attribute has a value' });
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    const inner = v[name] ?? null;
    const elements = inner === null ? [] : Array.isArray(inner) ? inner : [inner];
    elements.forEach((e, i) => {
      const here = nb.nesting === 'list' ? [...at, { attr: name }, { index: i }] : [...at, { attr: name }];
      found.push(...computedOnlyValues(nb.block, e as ObjectValue, here));
    });
  }
  return found;
}

function failOn(rpc: string, summary: string, problems: { path: AttributePath; message: string }[]): void {
  if (problems.length > 0)
    throw new ProviderCallError(
      rpc,
      problems.map((p) => ({ severity: 'error', summary, detail: p.message, path: formatPath(p.path) })),
    );
}

const dyn = (block: SchemaBlock, v: Value) => ({ msgpack: encodeMsgpack(impliedType(block), v) });

function undyn(block: SchemaBlock, dv: Msg | undefined): Value {
  return undynType(impliedType(block), dv);
}

function undynType(type: CtyType, dv: Msg | undefined): Value {
  if (!dv?.msgpack || dv.msgpack.length === 0) return null;
  return decodeMsgpack(type, dv.msgpack);
}

function pathText(attr: Msg | undefined): string {
  return attr ? formatPath(pathFromProto(attr)) : '';
}

function pathFromProto(p: Msg): AttributePath {
  return (p.steps ?? []).map((s: Msg) =>
    s.attribute_name
      ? { attr: s.attribute_name }
      : s.element_key_string !== undefined && s.element_key_string !== ''
        ? { key: s.element_key_string }
        : { index: Number(s.element_key_int ?? 0) },
  );
}

/** Plain config → the object value Terraform would send: every attribute present, blocks as collections. */
export function configValue(block: SchemaBlock, plain: Record<string, unknown>): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, a] of Object.entries(block.attributes)) out[name] = plainToValue(a.type, plain[name], name);
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    const p = plain[name];
    if (nb.nesting === 'single' || nb.nesting === 'group')
      out[name] =
        p == null
          ? nb.nesting === 'group'
            ? configValue(nb.block, {})
            : null
          : configValue(nb.block, p as Record<string, unknown>);
    else if (nb.nesting === 'map')
      out[name] = Object.fromEntries(
        Object.entries((p ?? {}) as Record<string, Record<string, unknown>>).map(([k, e]) => [
          k,
          configValue(nb.block, e),
        ]),
      );
    else out[name] = ((p ?? []) as Record<string, unknown>[]).map((e) => configValue(nb.block, e));
  }
  return out;
}
