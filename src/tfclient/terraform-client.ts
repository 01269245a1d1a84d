/**
 * A Terraform-side client: launches a provider executable as go-plugin does and drives it as
 * Terraform core would, computing proposed new states itself and applying Terraform's own plan,
 * apply and read checks (protocol.md §4), so tests catch what Terraform would reject. It never uses
 * the provider's engine: it is an independent judge.
 */
import type { Schema, SchemaBlock } from '../schema/block.js';
import { impliedType } from '../schema/block.js';
import type { ObjectValue, Value } from '../schema/value.js';
import { decodeMsgpack, encodeMsgpack } from '../schema/msgpack.js';
import { plainToValue } from '../schema/model.js';
import { formatPath, type AttributePath } from '../schema/path.js';
import { proposedNew, checkPlannedState, checkApplyResult, checkReadResult } from '../engine/checks/index.js';
import { launchProvider, type LaunchedProvider } from './launch.js';
import { schemaFromProto } from './schema-from-proto.js';

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
    super(`${rpc}: ${diagnostics.map((d) => `${d.summary}${d.path ? ` (at ${d.path})` : ''}: ${d.detail}`).join('; ')}`);
  }
}

export interface PlannedChange {
  planned: ObjectValue | null;
  requiresReplace: AttributePath[];
  plannedPrivate: Buffer;
}

export class TerraformClient {
  private schemas!: { provider: Schema; resources: Map<string, Schema>; dataSources: Map<string, Schema>; ephemerals: Map<string, Schema> };
  /** Every diagnostic received, warnings included, for tests to inspect. */
  readonly received: WireDiagnostic[] = [];

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

  async call(rpc: string, request: Msg): Promise<Msg> {
    const { response, diagnostics } = await this.callReporting(rpc, request);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new ProviderCallError(rpc, errors);
    return response;
  }

  /** An RPC whose error diagnostics are returned rather than thrown (a diagnostic without severity still throws). */
  async callReporting(rpc: string, request: Msg): Promise<{ response: Msg; diagnostics: WireDiagnostic[] }> {
    const res = await this.plugin.call(rpc as Parameters<LaunchedProvider['call']>[0], request);
    const diags: WireDiagnostic[] = (res.diagnostics ?? []).map((d: Msg) => ({
      severity: d.severity === 1 ? 'error' : d.severity === 2 ? 'warning' : 'invalid',
      summary: d.summary ?? '',
      detail: d.detail ?? '',
      path: pathText(d.attribute),
    }));
    this.received.push(...diags);
    const invalid = diags.filter((d) => d.severity === 'invalid');
    if (invalid.length > 0) throw new ProviderCallError(rpc, invalid.map((d) => ({ ...d, summary: `diagnostic without severity: ${d.summary}` })));
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
    };
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
    await this.call('ConfigureProvider', { terraform_version: terraformVersion, config: dyn(block, value), client_capabilities: { deferral_allowed: false } });
  }

  /** ValidateResourceConfig as Terraform 1.11 sends it; `writeOnlyAllowed: false` is what older Terraform (no capabilities) means. */
  async validateResource(type: string, config: ObjectValue, options: { writeOnlyAllowed?: boolean } = {}): Promise<void> {
    const capabilities = options.writeOnlyAllowed === false ? {} : { client_capabilities: { write_only_attributes_allowed: true } };
    await this.call('ValidateResourceConfig', { type_name: type, config: dyn(this.resourceSchema(type).block, config), ...capabilities });
  }

  /** PlanResourceChange with a proposed new state computed as Terraform does, plus Terraform's checks. */
  async plan(type: string, prior: ObjectValue | null, config: ObjectValue | null, priorPrivate: Buffer = Buffer.alloc(0)): Promise<PlannedChange> {
    const block = this.resourceSchema(type).block;
    const proposed = config === null ? null : (proposedNew(block, prior, config) as ObjectValue);
    const res = await this.call('PlanResourceChange', {
      type_name: type,
      prior_state: dyn(block, prior),
      proposed_new_state: dyn(block, proposed),
      config: dyn(block, config),
      prior_private: priorPrivate,
    });
    const planned = undyn(block, res.planned_state) as ObjectValue | null;
    if (config !== null) failOn('PlanResourceChange', 'Provider produced invalid plan', checkPlannedState(block, prior, config, planned));
    return { planned, requiresReplace: (res.requires_replace ?? []).map(pathFromProto), plannedPrivate: Buffer.from(res.planned_private ?? []) };
  }

  async apply(type: string, prior: ObjectValue | null, change: PlannedChange, config: ObjectValue | null): Promise<{ state: ObjectValue | null; private: Buffer }> {
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
    });
    const state = undyn(block, res.new_state) as ObjectValue | null;
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length === 0) failOn('ApplyResourceChange', 'Provider produced inconsistent result after apply', checkApplyResult(block, change.planned, state, change.planned === null));
    return { state, private: Buffer.from(res.private ?? []), errors };
  }

  async read(type: string, state: ObjectValue, priv: Buffer = Buffer.alloc(0)): Promise<{ state: ObjectValue | null; private: Buffer }> {
    const block = this.resourceSchema(type).block;
    const res = await this.call('ReadResource', { type_name: type, current_state: dyn(block, state), private: priv });
    const fresh = undyn(block, res.new_state) as ObjectValue | null;
    if (fresh !== null) failOn('ReadResource', 'Provider produced invalid object', checkReadResult(block, fresh));
    return { state: fresh, private: Buffer.from(res.private ?? []) };
  }

  async upgrade(type: string, version: number, stateJson: string): Promise<ObjectValue> {
    const block = this.resourceSchema(type).block;
    const res = await this.call('UpgradeResourceState', { type_name: type, version, raw_state: { json: Buffer.from(stateJson) } });
    const state = undyn(block, res.upgraded_state) as ObjectValue;
    failOn('UpgradeResourceState', 'Invalid resource state upgrade', checkReadResult(block, state));
    return state;
  }

  /** ImportResourceState then ReadResource, with Terraform's import rules (protocol.md §2.4). */
  async importState(type: string, id: string): Promise<ObjectValue> {
    const block = this.resourceSchema(type).block;
    const res = await this.call('ImportResourceState', { type_name: type, id });
    const imported: Msg[] = res.imported_resources ?? [];
    if (imported.length === 0) throw new ProviderCallError('ImportResourceState', [diag('Import returned no resources')]);
    if (imported.length > 1) throw new ProviderCallError('ImportResourceState', [diag('Multiple import states not supported')]);
    if (imported[0]!.type_name !== type) throw new ProviderCallError('ImportResourceState', [diag(`Import returned type ${imported[0]!.type_name}`)]);
    const state = undyn(block, imported[0]!.state) as ObjectValue | null;
    if (state === null) throw new ProviderCallError('ImportResourceState', [diag('Import returned null resource')]);
    const read = await this.read(type, state, Buffer.from(imported[0]!.private ?? []));
    if (read.state === null) throw new ProviderCallError('ReadResource', [diag('Cannot import non-existent remote object')]);
    return read.state;
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
  async openEphemeral(type: string, config: ObjectValue): Promise<{ result: ObjectValue; renewAt?: Date; private: Buffer }> {
    const block = this.ephemeralSchema(type).block;
    await this.call('ValidateEphemeralResourceConfig', { type_name: type, config: dyn(block, config) });
    const res = await this.call('OpenEphemeralResource', { type_name: type, config: dyn(block, config), client_capabilities: { deferral_allowed: false } });
    const result = undyn(block, res.result) as ObjectValue | null;
    if (result === null) throw new ProviderCallError('OpenEphemeralResource', [diag('Provider produced null result')]);
    failOn('OpenEphemeralResource', 'Provider produced invalid ephemeral result', checkReadResult(block, result));
    const renewAt = res.renew_at ? new Date(Number(res.renew_at.seconds) * 1000 + Math.floor(Number(res.renew_at.nanos ?? 0) / 1e6)) : undefined;
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

function diag(summary: string): WireDiagnostic {
  return { severity: 'error', summary, detail: '', path: '' };
}

function failOn(rpc: string, summary: string, problems: { path: AttributePath; message: string }[]): void {
  if (problems.length > 0) throw new ProviderCallError(rpc, problems.map((p) => ({ severity: 'error', summary, detail: p.message, path: formatPath(p.path) })));
}

const dyn = (block: SchemaBlock, v: Value) => ({ msgpack: Buffer.from(encodeMsgpack(impliedType(block), v)) });

function undyn(block: SchemaBlock, dv: Msg | undefined): Value {
  if (!dv || !dv.msgpack || dv.msgpack.length === 0) return null;
  return decodeMsgpack(impliedType(block), dv.msgpack);
}

function pathText(attr: Msg | undefined): string {
  return attr ? formatPath(pathFromProto(attr)) : '';
}

function pathFromProto(p: Msg): AttributePath {
  return (p.steps ?? []).map((s: Msg) =>
    s.attribute_name ? { attr: s.attribute_name } : s.element_key_string !== undefined && s.element_key_string !== '' ? { key: s.element_key_string } : { index: Number(s.element_key_int ?? 0) },
  );
}

/** Plain config → the object value Terraform would send: every attribute present, blocks as collections. */
export function configValue(block: SchemaBlock, plain: Record<string, unknown>): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, a] of Object.entries(block.attributes)) out[name] = plainToValue(a.type, plain[name], name);
  for (const [name, nb] of Object.entries(block.blockTypes)) {
    const p = plain[name];
    if (nb.nesting === 'single' || nb.nesting === 'group') out[name] = p == null ? (nb.nesting === 'group' ? configValue(nb.block, {}) : null) : configValue(nb.block, p as Record<string, unknown>);
    else if (nb.nesting === 'map') out[name] = Object.fromEntries(Object.entries((p ?? {}) as Record<string, Record<string, unknown>>).map(([k, e]) => [k, configValue(nb.block, e)]));
    else out[name] = ((p ?? []) as Record<string, unknown>[]).map((e) => configValue(nb.block, e));
  }
  return out;
}
