/**
 * Every `examples/<provider>/<type>` in one Terraform workspace against one emulator: each example
 * is a module (its provider block dropped so one provider instance serves all), described by its
 * case in `test/acceptance/cases/<provider>/` (format: CASES.md). Shared by the acceptance tests that run the whole table.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as grpcStatus } from '@grpc/grpc-js';
import type { DescribedRoute } from '../../src/emulators/core/router.js';
import type { FaultProfileOptions } from '../../src/emulators/core/fault-profile.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { REPO_ROOT, Workspace, type WorkspaceOptions } from './terraform.js';

export type Provider = 'sec' | 'vdb';

export interface Case {
  type: string;
  dir: string;
  address: string;
  dataSource?: boolean;
  expectState?: Record<string, unknown>;
  /** The emulator collection holding the object ("" when `local`). */
  collection: string;
  key: string;
  /**
   * Why the platform holds no object for it (the provider makes it alone, e.g. an external id): its
   * `created` and `update.expect` fields are then state attributes, and it has no drift.
   */
  local?: string;
  created?: Record<string, unknown>;
  update?: { from: string; to: string; expect?: Record<string, unknown>; replaces?: boolean };
  importId?: string;
  importChanges?: string;
  invalid?: { from: string; to: string; error: string };
  destroyed?: 'absent' | Record<string, unknown>;
  drift?: 'delete' | 'none';
}

/** What the tests need from an emulator: its settings as environment variables and its store. */
export interface EmulatorHandle {
  env: Record<string, string>;
  ids(collection: string): string[];
  get(collection: string, id: string): unknown;
  /** Writes behind the API's back, as the platform's console would. */
  put(collection: string, id: string, value: unknown): void;
  remove(collection: string, id: string): boolean;
  setFaultProfile(profile: FaultProfileOptions | undefined): void;
  /** Every request received so far, as `<METHOD> <path>` (sec) or the gRPC method name (vdb). */
  operations(): string[];
  /** sec: every request received so far with its parsed body, and the routes with their bodies' rules. */
  readonly rest?: {
    requests(): readonly { method: string; path: string; body: unknown }[];
    routes(): DescribedRoute[];
  };
  /**
   * From now on, the first answer to each distinct create request is lost after the object was
   * made (an ambiguous fault); a repeat of the same request is answered. Returns how many were lost.
   */
  loseFirstCreateAnswers(): () => number;
  /**
   * Until `stop`, the first of each distinct create request gets this fault (see `faultNextCreate`);
   * a repeat of the same request is answered. `count` says how many got it.
   */
  faultFirstCreates(kind: 'drop' | 'ambiguous'): { count(): number; stop(): void };
  /**
   * The next create request gets this fault: `drop`, the connection is lost before the platform acts
   * (the create never happens); `ambiguous`, the platform acts and the answer is lost.
   */
  faultNextCreate(kind: 'drop' | 'ambiguous'): void;
  /**
   * Resolves once every change the platform makes on its own and had started (a cluster's
   * provisioning, a running backup) has ended: what it holds then changes only when asked.
   */
  atRest(): Promise<void>;
  close(): Promise<void>;
}

export interface EmulatorOptions {
  /** vdb: how long a cluster takes to provision. */
  readonly provisioningMs?: number;
}

export const startEmulator: Record<Provider, (options?: EmulatorOptions) => Promise<EmulatorHandle>> = {
  async sec() {
    const { startSecEmulator } = await import('../../src/emulators/sec/index.js');
    const e = await startSecEmulator();
    const faultFirstCreates = (kind: 'drop' | 'ambiguous') => {
      const first = firstTimeSeen();
      e.injectFault({ method: 'POST', path: SEC_CREATES, ...secFault(kind), times: Infinity, when: first.accept });
      return first;
    };
    return {
      env: secProviderEnv(e),
      operations: everyOperation(e, (r) => `${r.method} ${r.path}`),
      rest: { requests: () => e.requests, routes: () => e.routes() },
      loseFirstCreateAnswers() {
        return faultFirstCreates('ambiguous').count;
      },
      faultFirstCreates,
      faultNextCreate(kind) {
        e.injectFault({ method: 'POST', path: SEC_CREATES, ...secFault(kind) });
      },
      // The security platform changes nothing on its own.
      atRest: async () => {},
      ...storeOf(e),
    };
  },
  async vdb(options = {}) {
    const { startVdbEmulator, DEFAULT_PROVISIONING_MS } = await import('../../src/emulators/vdb/index.js');
    const provisioningMs = options.provisioningMs ?? DEFAULT_PROVISIONING_MS;
    const e = await startVdbEmulator(
      options.provisioningMs === undefined ? {} : { provisioningMs: options.provisioningMs },
    );
    const faultFirstCreates = (kind: 'drop' | 'ambiguous') => {
      const first = firstTimeSeen();
      e.injectFault({ method: VDB_CREATES, ...vdbFault(kind), times: Infinity, when: first.accept });
      return first;
    };
    return {
      env: vdbProviderEnv(e),
      operations: everyOperation(e, (r) => r.method),
      loseFirstCreateAnswers() {
        return faultFirstCreates('ambiguous').count;
      },
      faultFirstCreates,
      faultNextCreate(kind) {
        e.injectFault({ method: VDB_CREATES, ...vdbFault(kind) });
      },
      // Every transition of the emulator (provisioning, a backup) ends `provisioningMs` after it began.
      atRest: () => new Promise((resolve) => setTimeout(resolve, provisioningMs)),
      ...storeOf(e),
    };
  },
};

/**
 * Every operation an emulator received, in order, however many: its log keeps only the newest
 * requests, so a long run's `operations().slice(before)` would come back empty and every check on it
 * would pass unseen. Each look takes what arrived since the last one, and fails if the log dropped any.
 */
function everyOperation<R>(
  e: { readonly requests: readonly R[]; requestsReceived(): number },
  name: (request: R) => string,
): () => string[] {
  const seen: string[] = [];
  let received = 0;
  return () => {
    const now = e.requestsReceived();
    const arrived = now - received;
    if (arrived > e.requests.length)
      throw new Error(`the emulator's log dropped ${arrived - e.requests.length} requests between two looks`);
    seen.push(...e.requests.slice(e.requests.length - arrived).map(name));
    received = now;
    return seen;
  };
}

/**
 * A logged operation (`operations()`) that made an object on the platform: a sec POST that is not the
 * token exchange, a search, a channel test, a scan, a query check nor a usage event (a data source's
 * read); a vdb Create.
 */
export const OBJECT_CREATES =
  /^(POST \/api\/v2\/(?!access\/tokens$)(?!Metrics\/)(?!.*\/(search|test|scan|validate)$)|Create)/;

/** Every POST under /api/v2 creates, but for the token endpoint, searches and channel tests. */
const SEC_CREATES = /^\/api\/v2\/(?!access\/tokens$)(?!.*\/(search|test|scan|validate)$)/;
const VDB_CREATES = /\/Create\w+$/;

/** Whether a logged request (`operations()`) is a create. */
export function isCreateOperation(provider: Provider): (operation: string) => boolean {
  if (provider === 'vdb') return (method) => /^Create\w+$/.test(method);
  return (operation) => {
    const [method, target = ''] = operation.split(' ');
    return method === 'POST' && SEC_CREATES.test(target.split('?')[0]!);
  };
}

const secFault = (kind: 'drop' | 'ambiguous') => (kind === 'drop' ? { dropConnection: true } : { ambiguous: true });
// grpc-js reports a connection lost mid-call as UNAVAILABLE, as the seeded `drop` fault does.
const vdbFault = (kind: 'drop' | 'ambiguous') =>
  kind === 'drop'
    ? { code: grpcStatus.UNAVAILABLE, message: 'connection dropped (injected fault)' }
    : { ambiguous: true };

/** Accepts each distinct request body once, until stopped. */
function firstTimeSeen(): { accept: (body: unknown) => boolean; count: () => number; stop: () => void } {
  const seen = new Set<string>();
  let stopped = false;
  return {
    accept(body) {
      const key = JSON.stringify(body);
      if (stopped || seen.has(key)) return false;
      seen.add(key);
      return true;
    },
    count: () => seen.size,
    stop: () => {
      stopped = true;
    },
  };
}

type StoreOnly = Omit<
  EmulatorHandle,
  'env' | 'operations' | 'loseFirstCreateAnswers' | 'faultFirstCreates' | 'faultNextCreate' | 'atRest'
>;

function storeOf(e: StoreOnly): StoreOnly {
  return {
    ids: (c) => e.ids(c),
    get: (c, id) => e.get(c, id),
    put: (c, id, v) => e.put(c, id, v),
    remove: (c, id) => e.remove(c, id),
    setFaultProfile: (p) => e.setFaultProfile(p),
    close: () => e.close(),
  };
}

/** Where the acceptance cases of a provider's examples are: `<example directory name>.json` (CASES.md). */
export const casesDir = (provider: string) => join(REPO_ROOT, 'test', 'acceptance', 'cases', provider);

/** The resource types a run is scoped to, when not all (`LIFECYCLE_TYPES`); CI runs every type. */
export { inScope, TYPES_IN_SCOPE } from '../support/types-in-scope.js';

export function loadCases(provider: Provider): Case[] {
  const root = casesDir(provider);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const type = file.slice(0, -'.json'.length);
      const dir = join(REPO_ROOT, 'examples', provider, type);
      if (!existsSync(join(dir, 'main.tf'))) throw new Error(`${join(root, file)}: no example ${dir}/main.tf`);
      return { type, dir, ...(JSON.parse(readFileSync(join(root, file), 'utf8')) as Omit<Case, 'type' | 'dir'>) };
    })
    .sort((a, b) => a.type.localeCompare(b.type));
}

/** Removes `provider "<name>" { ... }` blocks so every module uses the root's one provider instance. */
export function withoutProviderBlocks(hcl: string): string {
  let out = '';
  let i = 0;
  const re = /^provider\s+"[^"]+"\s*\{/gm;
  for (let m = re.exec(hcl); m; m = re.exec(hcl)) {
    out += hcl.slice(i, m.index);
    let depth = 0;
    let j = m.index + m[0].length - 1;
    for (; j < hcl.length; j++) {
      if (hcl[j] === '{') depth++;
      else if (hcl[j] === '}' && --depth === 0) break;
    }
    i = j + 1;
    re.lastIndex = i;
  }
  return out + hcl.slice(i);
}

/**
 * What a case's `created` and `update.expect` fields are checked against: the object the emulator
 * holds under the case's key, or for a `local` case its state values.
 */
export function heldObject(c: Case, emulator: Pick<EmulatorHandle, 'get'>, values: Record<string, unknown>): unknown {
  return c.local ? values : emulator.get(c.collection, at(values, c.key) as string);
}

/** Dotted path into an object ("policy.0.id", "data.channelProps.recipients"). */
export function at(obj: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      obj,
    );
}

export function expectFields(obj: unknown, fields: Record<string, unknown> | undefined, what: string): void {
  for (const [path, value] of Object.entries(fields ?? {}))
    expect(at(obj, path), `${what}: ${path}`).to.deep.equal(value);
}

/** `${attr}` placeholders filled from a state's values. */
export const fill = (template: string, values: Record<string, unknown>) =>
  template.replace(/\$\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));

/** The workspace of every example of `provider`, each a module, after `terraform get`. */
export class ExamplesWorkspace {
  readonly ws: Workspace;

  private constructor(
    readonly provider: Provider,
    readonly cases: readonly Case[],
    env: Record<string, string>,
    options: WorkspaceOptions,
  ) {
    const root = [
      `terraform {\n  required_providers {\n    ${provider} = {\n      source = "keel/${provider}"\n    }\n  }\n}\n`,
      `provider "${provider}" {}\n`,
      ...cases.map((c) => `module "${c.type}" {\n  source = "./modules/${c.type}"\n}\n`),
    ].join('\n');
    this.ws = new Workspace(root, env, options);
    for (const c of cases) {
      mkdirSync(join(this.ws.dir, 'config', 'modules', c.type), { recursive: true });
      writeFileSync(this.moduleFile(c), withoutProviderBlocks(readFileSync(join(c.dir, 'main.tf'), 'utf8')));
    }
  }

  static async create(
    provider: Provider,
    cases: readonly Case[],
    env: Record<string, string>,
    options: WorkspaceOptions = {},
  ): Promise<ExamplesWorkspace> {
    const examples = new ExamplesWorkspace(provider, cases, env, options);
    // Local modules still need recording; `get` does that without touching providers (dev_overrides).
    await examples.ws.expect(['get']);
    return examples;
  }

  /** The resource examples (not the data sources). */
  get resources(): Case[] {
    return this.cases.filter((c) => !c.dataSource);
  }

  /** The address of an example's resource under test. */
  address(c: Case): string {
    return `module.${c.type}.${c.address}`;
  }

  moduleFile(c: Case): string {
    return join(this.ws.dir, 'config', 'modules', c.type, 'main.tf');
  }

  /** Replaces the first `from` in the example's module with `to` (which must occur). */
  substitute(c: Case, from: string, to: string): void {
    const text = readFileSync(this.moduleFile(c), 'utf8');
    expect(text, `${c.type}: the text to substitute must occur in the example`).to.include(from);
    writeFileSync(this.moduleFile(c), text.replace(from, to));
  }

  dispose(): void {
    this.ws.dispose();
  }
}

/**
 * After imports, the re-plan is empty, or updates in place only the examples that declare why
 * (`importChanges`: a secret the platform never returns), which one apply settles.
 */
export async function expectImportsSettled(
  ws: Workspace,
  imported: readonly Case[],
  address: (c: Case) => string,
): Promise<void> {
  const plan = await ws.run(['plan', '-detailed-exitcode', '-no-color', '-parallelism=20']);
  if (plan.code !== 2) {
    expect(plan.code, plan.stderr).to.equal(0);
    return;
  }
  const changed = [...plan.stdout.matchAll(/# (module\.\S+) will be updated in-place/g)].map((m) => m[1]);
  const allowed = new Set(imported.filter((c) => c.importChanges).map(address));
  expect(
    changed.filter((a) => !allowed.has(a!)),
    'unexpected changes after import',
  ).to.deep.equal([]);
  expect(plan.stdout).to.not.match(/must be replaced|will be created|will be destroyed/);
  await ws.expect(['apply', '-auto-approve', '-parallelism=20']);
  await ws.expect(['plan', '-detailed-exitcode', '-parallelism=20'], 0);
}
