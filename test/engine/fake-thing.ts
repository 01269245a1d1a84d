/**
 * A fake platform of things that hold a name (their key, which the platform does not keep unique) and a
 * color, and one Terraform run over it: a provider engine with its own clock, in a working directory,
 * that can be killed mid-create. What the create journal's tests (killed-creates.test.ts,
 * untracked-objects.test.ts) run against.
 */
import { attr, resourceSchema } from '../../packages/framework/src/schema/define.js';
import {
  provider,
  resource,
  type ResourceDef,
  type CreateSettings,
} from '../../packages/framework/src/engine/contracts/index.js';
import type { Logger } from '../../packages/framework/src/engine/diagnostics/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { CreateJournal, journalPlace } from '../../packages/framework/src/engine/journal/index.js';
import type { ProcessInfo } from '../../packages/framework/src/engine/host/host-process.js';
import { HostView } from '../../packages/framework/src/engine/host/index.js';
import type { CreateRecoveryOptions } from '../../packages/framework/src/engine/creates/index.js';
import { proposedNew } from '../../packages/framework/src/engine/checks/index.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../packages/framework/src/wire/api-error.js';
import { notePlatformDate } from '../../packages/framework/src/wire/platform-clock.js';
import { setTimeout as delay } from 'node:timers/promises';
import { recordsUnder } from '../support/create-records.js';

export interface Thing {
  id: string;
  name: string;
  color: string;
  made: number;
}

/**
 * What happens to the next create request: answered; the process killed before it arrives or after the
 * platform made the object; or its answer lost after the platform made it (`lost-after`), in a run that
 * goes on.
 */
type Fate = 'answered' | 'killed-before' | 'killed-after' | 'lost-after';

export class Platform {
  things = new Map<string, Thing>();
  seq = 0;
  creates = 0;
  lists = 0;
  fates: Fate[] = [];
  /** How listings fail: refused at once with this error, or never answered (`hang`: until aborted). */
  listing: 'answers' | 'hang' | Error = 'answers';
  /** The platform's clock: when it says objects were made. */
  clock = Date.now();
  /** Whether its answers are dated (HTTP's `Date`), and how far the runner's clock is ahead of its own. */
  dates = false;
  runnerAheadMs = 0;
  /** Resolves when a create request reaches the platform (the moment to kill at). */
  reached: Promise<void> = Promise.resolve();
  private reach: () => void = () => {};
  expectRequest(): void {
    this.reached = new Promise((resolve) => (this.reach = resolve));
  }
  arrived(): void {
    this.reach();
  }
  foreign(name: string, color = 'blue', made = this.clock): Thing {
    const t = { id: `foreign-${++this.seq}`, name, color, made };
    this.things.set(t.id, t);
    return t;
  }
}

export const schema = resourceSchema(
  {
    id: attr.sdkId(),
    name: attr.string({ required: true, description: 'name' }),
    color: attr.string({
      optional: true,
      default: 'blue',
      description: 'a setting the platform stores',
      // What a create would refuse at plan, as an expiry that has passed is (whose-state.test.ts).
      validate: [
        { description: 'not `expired`', check: (v) => (v === 'expired' ? 'must be in the future' : undefined) },
      ],
    }),
    token: attr.string({ optional: true, sensitive: true, description: 'a secret the platform never shows' }),
    made_at: attr.string({ computed: true, description: 'when the platform made it' }),
  },
  { description: 'a thing' },
);
type Fields = typeof schema.fields;

const quiet: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
const never = new Promise<never>(() => {});

export const model = (t: Thing) => ({
  id: t.id,
  name: t.name,
  color: t.color,
  token: null,
  made_at: new Date(t.made).toISOString(),
});

export function thing(
  options: { withTime?: boolean; uniqueNames?: boolean; findsCreated?: boolean } = {},
): ResourceDef<Fields, Platform> {
  const def = resource<Fields, Platform>({
    typeName: 'fake_thing',
    schema,
    importIdDescription: 'the thing id',
    importState: async (id) => ({ id }),
    async create(plan, ctx) {
      const api = ctx.client;
      api.creates++;
      const fate = api.fates.shift() ?? 'answered';
      api.arrived();
      if (fate === 'killed-before') return never;
      if (options.uniqueNames === true && [...api.things.values()].some((t) => t.name === plan.name))
        throw new ApiError(`a thing named ${JSON.stringify(plan.name)} exists`, {
          code: 'conflict',
          operation: 'POST /things',
          status: 409,
        });
      const t = { id: `t-${++api.seq}`, name: plan.name, color: plan.color ?? 'blue', made: api.clock };
      api.things.set(t.id, t);
      if (fate === 'killed-after') return never;
      if (fate === 'lost-after')
        throw new ApiError('POST /things: the connection closed before the answer', {
          code: 'outcome_unknown',
          operation: 'POST /things',
        });
      return model(t);
    },
    findCreated: {
      key: 'its name',
      uniqueKey: options.uniqueNames === true,
      describe: (plan) => `the thing named ${JSON.stringify(plan.name)}`,
      async list(_plan, ctx) {
        const api = ctx.client;
        api.lists++;
        if (api.dates) notePlatformDate(new Date(api.clock).toUTCString(), api.clock + api.runnerAheadMs);
        if (api.listing instanceof Error) throw api.listing;
        if (api.listing === 'hang')
          await new Promise((_resolve, reject) =>
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
          );
        return [...api.things.values()].map(model);
      },
      holdsKey: (plan, found) => found.name === plan.name,
      importId: (found) => found.id ?? '',
      ...(options.withTime === false ? {} : { madeAt: (found) => Date.parse(found.made_at ?? '') }),
    },
    async read(prior, ctx) {
      const t = ctx.client.things.get(prior.id!);
      return t ? model(t) : null;
    },
    async delete(prior, ctx) {
      ctx.client.things.delete(prior.id!);
    },
  });
  if (options.findsCreated !== false) return def;
  const { findCreated: _cannot, ...blind } = def;
  return blind;
}

/** How a run is set up: what its platform reports, its provider settings, the walk it serves. */
export interface RunOptions {
  readonly withTime?: boolean;
  readonly settings?: CreateSettings;
  /** Plans as Terraform's apply walk does (`deferral_allowed`). */
  readonly applyWalk?: boolean;
  readonly recovery?: Partial<CreateRecoveryOptions>;
  /** False: no records at all (KEEL_CREATE_RECORDS=off). */
  readonly records?: boolean;
  /** The Terraform workspace it runs in (default: `default`). */
  readonly workspace?: string;
  /**
   * The client that runs it, as its command line and ConfigureProvider show it: Terraform by default
   * (`terraform plan`), Pulumi's bridge with `pulumi`; `argv` is the client's command line.
   */
  readonly host?: { readonly pulumi?: boolean; readonly argv?: readonly string[] };
  /**
   * Which run of the client this process serves, as the system would say when that client started
   * (engine/host/host-view.ts): the plan walk and the apply walk of one `terraform apply` share it.
   * Unset: a system that does not say (the notes alone then decide whose an object is).
   */
  readonly clientRun?: string;
  /** Whether the platform keeps the name unique (HTTP 409 for a second). */
  readonly uniqueNames?: boolean;
  /** False: the type declares no `findCreated` (nor `repeatableCreate`), so nothing finds what a create made. */
  readonly findsCreated?: boolean;
  /** The runner's clock (default: the real one), for a simulation that lets minutes pass between runs. */
  readonly clock?: () => number;
  /**
   * The backend `terraform init` recorded in the data directory (`.terraform/terraform.tfstate`), as
   * `-backend-config` gives it: none is the `local` backend, whose state file is in the working directory.
   */
  readonly backend?: { readonly type: string; readonly config: Record<string, unknown> };
}

/** What `terraform init` writes of the backend into the data directory of `dir`. */
export function initBackend(dir: string, backend: NonNullable<RunOptions['backend']>): void {
  mkdirSync(join(dir, '.terraform'), { recursive: true });
  const recorded = { version: 3, serial: 1, lineage: 'x', backend: { ...backend, hash: 1 } };
  writeFileSync(join(dir, '.terraform', 'terraform.tfstate'), JSON.stringify(recorded));
}

/** One run of Terraform in the working directory: a provider process with its own clock. */
export class Run {
  readonly engine: ProviderEngine<Platform>;
  readonly journal: CreateJournal;
  private frozenAt: number | undefined;
  private constructor(
    readonly api: Platform,
    dir: string,
    private readonly options: RunOptions,
  ) {
    if (options.backend) initBackend(dir, options.backend);
    const env = options.workspace ? { TF_WORKSPACE: options.workspace } : {};
    const place = options.records === false ? null : journalPlace({ namespace: 'acme', name: 'fake' }, env, dir);
    this.journal = new CreateJournal('fake', place, () => this.frozenAt ?? this.now());
    const pulumi = options.host?.pulumi === true;
    const argv = options.host?.argv ?? (pulumi ? ['pulumi', 'up', '-s', 'test'] : ['terraform', 'plan']);
    // The client and what started it, as the system would show them (host-process.ts).
    const chain: Record<number, ProcessInfo> = pulumi
      ? { 100: { ppid: 101, argv: ['pulumi-resource-terraform-provider'] }, 101: { ppid: 1, argv } }
      : { 100: { ppid: 1, argv, ...(options.clientRun ? { started: options.clientRun } : {}) } };
    const reader = Object.assign((pid: number) => chain[pid], { startTimes: options.clientRun !== undefined });
    const host = new HostView({}, dir, reader, 100);
    const def = provider({
      name: 'fake',
      version: '0.0.1',
      schema: resourceSchema({}, { description: 'fake provider' }),
      configure: async () => api,
      apiAddress: () => 'https://fake.example',
      environmentPrefix: 'FAKE',
      ...(options.settings ? { createSettings: () => options.settings! } : {}),
      resources: [thing(options)],
      dataSources: [],
    });
    const recovery = { lookupDelayMs: 0, ...options.recovery };
    this.engine = new ProviderEngine(def, quiet, {}, recovery, this.journal, host);
  }

  /** The runner's clock: the real one, or the one a simulation keeps. */
  private now(): number {
    return this.options.clock?.() ?? Date.now();
  }

  static async start(api: Platform, dir: string, options: RunOptions = {}): Promise<Run> {
    const run = new Run(api, dir, options);
    started.add(run);
    await run.engine.configureProvider(options.host?.pulumi ? 'pulumi-terraform-bridge' : '1.15.5', {});
    return run;
  }

  async plan(name: string, color: string | null = null) {
    const config: ObjectValue = { id: null, name, color, token: null, made_at: null };
    const proposed = proposedNew(schema.block, null, config) as ObjectValue;
    const client = { deferralAllowed: this.options.applyWalk === true };
    return this.engine.planWithNotices('fake_thing', null, proposed, config, {}, null, client);
  }

  /** Terraform's upgrade of a stored state, the walk's first word of an object it tracks. */
  upgrade(state: ObjectValue) {
    return this.engine.upgradeResourceState('fake_thing', 0, JSON.stringify(state));
  }

  async create(name: string, color: string | null = null) {
    const plan = await this.plan(name, color);
    return this.engine.applyResourceChange('fake_thing', null, plan.planned, plan.plannedPrivate);
  }

  /** Starts a create and kills the process once its request reached the platform. */
  async createKilled(name: string, fate: 'killed-before' | 'killed-after', color: string | null = null) {
    this.api.fates.push(fate);
    this.api.expectRequest();
    void this.create(name, color);
    await this.api.reached;
    this.kill();
  }

  kill(): void {
    this.frozenAt = this.now();
  }

  /**
   * Terraform's plan walk of an object its state holds: an upgrade takes it from the state, the refresh
   * reads it, then a plan of it is made (`kept`: its configuration as it is), or none (`destroyed`: an
   * orphan, a renamed key's old object, as the provider does not ask for plans of destroys; `tainted`: its
   * replacement is planned as a create). `forgotten` (a `removed` block with `destroy = false`) is not read
   * by Terraform since 1.10, nor by any client's walk with `-refresh=false`; OpenTofu reads it.
   */
  async showTracked(state: ObjectValue, then: 'kept' | 'destroyed' | 'tainted' | 'forgotten' = 'kept') {
    await this.upgrade(state);
    const argv = this.options.host?.argv ?? [];
    const refreshes = !argv.includes('-refresh=false');
    const readsForgotten = argv[0]?.startsWith('tofu') === true;
    if (refreshes && (then !== 'forgotten' || readsForgotten))
      await this.engine.readWithIdentity('fake_thing', state, {}, null);
    if (then === 'kept') {
      const config = { ...state, id: null, made_at: null, token: null };
      const proposed = proposedNew(schema.block, state, config) as ObjectValue;
      await this.engine.planWithNotices('fake_thing', state, proposed, config, {}, null);
    }
    await this.journal.flush();
  }
}

/** The names of the records of the fake provider's journal under `dir`: answered files and requests waiting in logs. */
export const records = (dir: string) =>
  recordsUnder(journalPlace({ namespace: 'acme', name: 'fake' }, {}, dir).root).map((r) => r.name);

/** Every run a test started, until `removeRuns` has waited for their writes. */
const started = new Set<Run>();

/**
 * Removes a test's working directory once the runs started in it have written what they queued: a
 * run under Pulumi hands a returned create over in the background (Pulumi never shuts providers
 * down), so its records may still be written when the test's last call returns.
 */
export async function removeRuns(dir: string): Promise<void> {
  const runs = [...started];
  started.clear();
  await Promise.race([Promise.all(runs.map((run) => run.journal.flush().catch(() => undefined))), delay(5000)]);
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
}
