/**
 * What the engine's parts share, and nothing more: the provider's declarations, its configured
 * client (or why there is none yet), the stop signal, and the context an operation is given. Each
 * part (engine/entry/provider-engine.ts lists them) holds this object, never the façade that puts them together.
 */
import type { Fields, PlatformLimits } from '../../schema/define.js';
import { impliedType } from '../../schema/block.js';
import { decodeJSON } from '../../schema/json.js';
import { toConfigModel, toModel } from '../../schema/model.js';
import type { ObjectValue } from '../../schema/value.js';
import type {
  ActionDef,
  DataSourceDef,
  EphemeralDef,
  OpContext,
  ProviderDef,
  ResourceDef,
  CreateSettings,
} from '../contracts/index.js';
import {
  type Logger,
  Diagnostics,
  DiagnosticError,
  diagnosticFromError,
  type Diagnostic,
} from '../diagnostics/index.js';
import type { CreateJournal, Seen } from '../journal/index.js';
import { HostTerms, HostView, WalkView } from '../host/index.js';
import { TypeRegistry } from './type-registry.js';
import { checkConfig, type Checked } from '../plan/index.js';

export type PrivateState = Record<string, unknown>;

export interface StateOutcome {
  state: ObjectValue | null;
  private: PrivateState;
  diags: Diagnostics;
}

export class EngineContext<C> {
  /** What the provider declares, by kind and type name (type-registry.ts). */
  readonly resources: TypeRegistry<ResourceDef<Fields, C>>;
  readonly dataSources: TypeRegistry<DataSourceDef<Fields, C>>;
  readonly ephemeralResources: TypeRegistry<EphemeralDef<Fields, C>>;
  /** The resource types that can be listed (`terraform query`). */
  readonly listResources: TypeRegistry<ResourceDef<Fields, C>>;
  readonly actions: TypeRegistry<ActionDef<Fields, C>>;
  /** Set by ConfigureProvider (engine/entry/provider-config.ts). */
  client: C | undefined;
  /** Why there is no client yet: not configured, or configured with values unknown until apply. */
  unconfiguredReason = 'The provider has not been configured.';
  /** What creates do about untracked look-alikes and where their records live; set by ConfigureProvider. */
  createSettings: CreateSettings = { untrackedObjects: 'refuse' };
  /** The walk this process serves, as far as it can tell (engine/host/walk.ts). */
  readonly walk = new WalkView();
  /** The client that runs the provider and what its user asked (engine/host/host-view.ts). */
  readonly host: HostView;
  /** Messages in that client's words (engine/host/host-terms.ts). */
  readonly terms: HostTerms;
  /**
   * Why the platform could not be asked at plan (it did not answer, or refused the credentials), once a
   * check of the world found it could not: the checks after it say so at once instead of waiting again.
   */
  unreachable: string | undefined;
  private stopController = new AbortController();

  constructor(
    readonly def: ProviderDef<Fields, C>,
    readonly log: Logger,
    readonly env: NodeJS.ProcessEnv,
    /** The records of this provider's creates, which outlive the process (engine/journal/create-journal.ts). */
    readonly journal: CreateJournal,
    host?: HostView,
  ) {
    this.host = host ?? new HostView(env);
    this.terms = new HostTerms(this.host, {
      name: def.name,
      ...(def.environmentPrefix ? { environmentPrefix: def.environmentPrefix } : {}),
      resources: new Map(def.resources.map((r) => [r.typeName, r.schema])),
      dataSources: def.dataSources.map((d) => d.typeName),
    });
    this.resources = new TypeRegistry(def.name, 'resource type', def.resources);
    this.dataSources = new TypeRegistry(def.name, 'data source', def.dataSources);
    this.ephemeralResources = new TypeRegistry(def.name, 'ephemeral resource', def.ephemeralResources ?? []);
    this.listResources = new TypeRegistry(
      def.name,
      'list resource',
      def.resources.filter((r) => r.list),
    );
    this.actions = new TypeRegistry(def.name, 'action', def.actions ?? []);
  }

  /** Aborted by the next StopProvider (a fresh signal after each). */
  get stopSignal(): AbortSignal {
    return this.stopController.signal;
  }

  /** StopProvider: cancels in-flight work; later calls get a fresh signal. */
  stop(): void {
    this.stopController.abort();
    this.stopController = new AbortController();
  }

  /**
   * Terraform showed a state of `r` (a prior state, a read, a plan of it, an import) or found its object
   * gone: the records of the create that made it end (engine/journal/create-journal.ts), and the notes of
   * this workspace say its state holds it, which this workspace's creates take as this state's
   * (engine/journal/journal-notes.ts; not for an import, which a plan may never apply).
   */
  seen(r: ResourceDef<Fields, C>, state: ObjectValue, how: Seen): void {
    const id = idOf(r, state);
    if (id === undefined || !this.journal.usable) return;
    // A walk shows an object up to three times (an upgrade, a read, a plan): the journal hears each kind once.
    const told = `${how} ${r.typeName} ${id}`;
    if (this.told.has(told)) return;
    this.told.add(told);
    if (how === 'gone') for (const shown of ['stored', 'tracked']) this.told.delete(`${shown} ${r.typeName} ${id}`);
    this.journal.seen(r.typeName, id, how);
  }

  /** What the journal was told of each object, once per process. */
  private readonly told = new Set<string>();

  /** What went wrong with the records of creates, as a warning once per process (engine/journal/create-journal.ts). */
  journalWarning(diags: Diagnostics): void {
    const problem = this.journal.takeProblem();
    if (problem) {
      this.log.warn('create records unavailable', { detail: problem });
      diags.warning('Creates are not recorded', problem);
    }
  }

  /** `signal`, when given, also ends the operation (e.g. Terraform closing a stream it has read enough of). */
  operation(
    diags: Diagnostics,
    priv: PrivateState,
    typeName: string,
    partial: (m: object | undefined) => void = () => {},
    signal?: AbortSignal,
  ): OpContext<C> {
    const engine = this;
    let log: Logger | undefined;
    return {
      get client(): C {
        if (engine.client === undefined) {
          throw new DiagnosticError('Provider not configured', engine.unconfiguredReason);
        }
        return engine.client;
      },
      signal: signal ? AbortSignal.any([this.stopController.signal, signal]) : this.stopController.signal,
      // Made when an operation logs, which most never do.
      get log(): Logger {
        return (log ??= engine.log.child({ tf_resource_type: typeName }));
      },
      diags,
      private: priv,
      partial,
    };
  }
}

/** Operations see an optional argument set empty as null: the platforms make no difference. */
export const MODEL_OPTIONS = { emptyOptionalsAsNull: true } as const;

/** The import id of the object a state of `r` holds; undefined when the type has none or the state gives none. */
export function idOf<C>(r: ResourceDef<Fields, C>, state: ObjectValue): string | undefined {
  const lookup = r.findCreated;
  if (!lookup) return undefined;
  try {
    const id = lookup.importId(toModel(r.schema.fields, state, MODEL_OPTIONS));
    return id === '' ? undefined : id;
  } catch {
    return undefined;
  }
}

/** The errors the configuration checks find (plan and apply time: warnings were shown at validation). */
export function errorsOf(
  def: Checked,
  config: ObjectValue,
  stored: ObjectValue | null,
  limits: PlatformLimits | undefined,
): Diagnostic[] {
  const checks = new Diagnostics();
  checkConfig(def, config, checks, { stored, limits });
  return checks.items.filter((d) => d.severity === 'error');
}

/**
 * The errors of a type's rules that need the configured provider (`validateWithProvider`), when the
 * provider is configured and it has some; a rule that throws is an error titled `summary`.
 */
export function providerRuleErrors<C>(
  def: Pick<ResourceDef<Fields, C>, 'schema' | 'validateWithProvider'>,
  config: ObjectValue,
  client: C | undefined,
  summary: string,
): Diagnostic[] {
  if (!def.validateWithProvider || client === undefined) return [];
  const checks = new Diagnostics();
  try {
    def.validateWithProvider(toConfigModel(def.schema.fields, config), client, checks);
  } catch (err) {
    checks.append([diagnosticFromError(summary, err)]);
  }
  return checks.items.filter((d) => d.severity === 'error');
}

export function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'not_found';
}

/**
 * A state of `r` as Terraform stores it (JSON of schema `version`), in the current schema;
 * throws if it does not fit.
 */
export function decodeStored<C>(r: ResourceDef<Fields, C>, version: number, rawJson: string): ObjectValue | null {
  let json = rawJson;
  if (version < r.schema.version) {
    if (!r.upgrade) throw new Error(`no upgrade from schema version ${version} to ${r.schema.version}`);
    json = JSON.stringify(r.upgrade(version, JSON.parse(rawJson) as Record<string, unknown>));
  }
  const options = { missingAttributesAreNull: true, dropUnknownAttributes: true };
  return decodeJSON(impliedType(r.schema.block), json, options) as ObjectValue | null;
}
