/**
 * Never touch what we did not make, under real Terraform, for a representative set of each
 * family: alert channels (names not unique), a team member and an agent token (unique keys) on sec;
 * custom roles and a cluster on vdb. test/props/ownership.test.ts proves the rule for every type.
 *
 * - Two workspaces in two folders, A and B, with the same configuration against one emulator. A
 *   applies first. Where the key is unique, B's plan refuses, naming A's object and how to import it.
 *   B applies the rest with the first request of each create lost: `drop` (the connection goes before
 *   the platform acts) or `ambiguous` (it acts, the answer is lost). B's state never names an object
 *   of A's; A's objects are untouched, and B's destroy leaves them as they were.
 * - `create_before_destroy` with `-replace`, the new creates' first requests lost the same ways: the
 *   replacements are new objects, the deposed ones are destroyed, nothing is lost.
 * The providers run with the default pause before a lookup, as a user's do.
 */
import { expect } from 'chai';
import { at, loadCases, startEmulator, type EmulatorHandle, type Provider } from './examples-workspace.js';
import { Workspace, requireTerraform, type RunResult, type StateResource } from './terraform.js';

const KINDS = ['drop', 'ambiguous'] as const;
type Kind = (typeof KINDS)[number];

interface Family {
  /** The configuration both workspaces apply (a provider block with no arguments: the environment configures it). */
  readonly hcl: string;
  /**
   * Resource types whose key the platform keeps unique, each with the state attribute holding the id
   * its import takes: B's creates of them must fail, naming A's object by that id.
   */
  readonly unique: Readonly<Record<string, string>>;
  /** Addresses to `-replace` in the create_before_destroy run. */
  readonly replaced: readonly string[];
}

const FAMILIES: Record<Provider, Family> = {
  sec: {
    hcl: `
terraform {
  required_providers {
    sec = { source = "keel/sec" }
  }
}
provider "sec" {}

resource "sec_alert_channel_email" "ops" {
  count      = 3
  name       = "ops-\${count.index}"
  recipients = ["ops-\${count.index}@example.com"]
  lifecycle {
    create_before_destroy = true
  }
}

resource "sec_team_member" "lead" {
  email      = "lead@example.com"
  first_name = "Ada"
  last_name  = "Lovelace"
  company    = "Example Corp"
}

resource "sec_agent_access_token" "fleet" {
  name        = "fleet"
  description = "Agents in the build fleet"
}
`,
    unique: { sec_team_member: 'guid', sec_agent_access_token: 'name' },
    replaced: ['sec_alert_channel_email.ops[0]', 'sec_alert_channel_email.ops[1]', 'sec_alert_channel_email.ops[2]'],
  },
  vdb: {
    hcl: `
terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}
provider "vdb" {}

data "vdb_booking_packages" "aws" {
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
}

resource "vdb_accounts_role" "ops" {
  count       = 2
  name        = "ops-\${count.index}"
  description = "Operators"
  permissions {
    value = "read:clusters"
  }
  lifecycle {
    create_before_destroy = true
  }
}

resource "vdb_accounts_cluster" "shared" {
  name           = "shared"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
  configuration {
    number_of_nodes = 1
    node_configuration {
      package_id = one([for p in data.vdb_booking_packages.aws.packages : p.id if p.name == "small"])
    }
  }
}
`,
    unique: {},
    replaced: ['vdb_accounts_role.ops[0]', 'vdb_accounts_role.ops[1]'],
  },
};

/** Where each type's objects live in the emulator, from the examples' acceptance cases. */
function locations(provider: Provider): Map<string, { collection: string; key: string }> {
  return new Map(loadCases(provider).map((c) => [c.address.split('.')[0]!, { collection: c.collection, key: c.key }]));
}

interface Tracked {
  readonly type: string;
  /** Its id in the emulator's collection. */
  readonly id: string;
  readonly values: Record<string, unknown>;
}

/** The managed resources of a state, by address. */
function objectsOf(
  state: Map<string, StateResource>,
  where: Map<string, { collection: string; key: string }>,
): Map<string, Tracked> {
  const out = new Map<string, Tracked>();
  for (const res of state.values()) {
    if (res.mode !== 'managed') continue;
    out.set(res.address, { type: res.type, id: String(at(res.values, where.get(res.type)!.key)), values: res.values });
  }
  return out;
}

async function familyRun(provider: Provider): Promise<string[]> {
  const family = FAMILIES[provider];
  const where = locations(provider);
  const emulator = await startEmulator[provider]({ provisioningMs: 100 });
  const notes: string[] = [];
  const workspaces: Workspace[] = [];
  const workspace = (env: Record<string, string> = {}) => {
    const ws = new Workspace(family.hcl, { ...emulator.env, ...env });
    workspaces.push(ws);
    return ws;
  };
  /** What the emulator holds for each of a state's objects, as JSON (undefined: gone). */
  const held = (objects: Map<string, Tracked>) =>
    new Map(
      [...objects].map(([address, o]) => [address, JSON.stringify(emulator.get(where.get(o.type)!.collection, o.id))]),
    );
  const collections = [...new Set([...where.values()].map((w) => w.collection))];
  const initial = new Map(collections.map((c) => [c, new Set(emulator.ids(c))]));
  /** Objects made since the start, per collection. */
  const made = () =>
    new Map(
      collections.map((c) => [
        c,
        emulator
          .ids(c)
          .filter((id) => !initial.get(c)!.has(id))
          .sort(),
      ]),
    );
  const unique = Object.keys(family.unique);

  try {
    const a = workspace();
    await a.expect(['apply', '-auto-approve', '-no-color']);
    let objectsA = objectsOf(await a.state(), where);
    const heldA = held(objectsA);
    // B makes the objects A made, on purpose: it says so, or its plan refuses A's objects as untracked
    // look-alikes (README, "Whose object is it").
    const onPurpose = { SEC_UNTRACKED_OBJECTS: 'warn', VDB_UNTRACKED_OBJECTS: 'warn' };
    // Where the platform keeps the key unique, B's apply refuses each such create before sending it,
    // naming A's object (its plan warns: it cannot know yet whether its walk shows the object).
    if (unique.length > 0) {
      const onlyUnique = workspace(onPurpose);
      const others = [...family.hcl.matchAll(/\nresource "([a-z0-9_]+)" "/g)].map((m) => m[1]!);
      onlyUnique.writeConfig(
        withoutTypes(
          family.hcl,
          others.filter((type) => !unique.includes(type)),
        ),
      );
      const refused = await onlyUnique.run(['apply', '-auto-approve', '-no-color']);
      const errors = squashed(refused.stderr);
      expect(refused.code, `${provider}: B's apply`).to.equal(1);
      for (const [type, idAttribute] of Object.entries(family.unique)) {
        const holder = String([...objectsA.values()].find((o) => o.type === type)!.values[idAttribute]);
        expect(errors, `${provider}: B's plan of ${type} names A's object to import`)
          .to.include('exists already')
          .and.include(`terraform import <address> '${holder}'`);
      }
      expect(objectsOf(await onlyUnique.state(), where).size, `${provider}: B made none of them`).to.equal(0);
      notes.push(`B's apply: ${unique.length} refused, naming A's objects of the keys the platform keeps unique`);
    }

    for (const kind of KINDS) {
      // B's own creates, where the platform lets two objects share a key.
      const b = workspace(onPurpose);
      b.writeConfig(withoutTypes(family.hcl, unique));
      const { result, lost } = await withFirstCreatesFaulted(emulator, kind, b, [
        'apply',
        '-auto-approve',
        '-no-color',
      ]);
      const what = `${provider}: B's apply with the first request of each create ${kind === 'drop' ? 'dropped' : 'answered into the void'}`;
      expect(lost, `${what}: requests faulted`).to.be.greaterThan(0);
      const objectsB = objectsOf(await b.state(), where);
      // No object in both states.
      const idsA = new Set([...objectsA.values()].map((o) => `${o.type}/${o.id}`));
      const shared = [...objectsB].filter(([, o]) => idsA.has(`${o.type}/${o.id}`)).map(([address]) => address);
      expect(shared, `${what}: resources of B that name an object of A's`).to.deep.equal([]);
      expect(result.code, `${what}: exit code\n${result.stderr}`).to.equal(0);
      expect(objectsB.size, `${what}: B's resources`).to.equal(objectsA.size - unique.length);
      expect(held(objectsA), `${what}: A's objects are untouched`).to.deep.equal(heldA);
      await b.expect(['destroy', '-auto-approve', '-no-color']);
      expect(held(objectsA), `${what}, then B's destroy: A's objects are untouched`).to.deep.equal(heldA);
      for (const [address, o] of objectsB) {
        const stored = emulator.get(where.get(o.type)!.collection, o.id);
        expect(
          stored === undefined || isDestroyedForm(provider, o.type, JSON.stringify(stored)),
          `${what}: B's ${address} is gone`,
        ).to.equal(true);
      }
      notes.push(`B under ${kind}: ${objectsB.size} objects of its own; A's ${objectsA.size} untouched`);
    }

    for (const kind of KINDS) {
      const what = `${provider}: create_before_destroy -replace with the first request of each create ${kind === 'drop' ? 'dropped' : 'answered into the void'}`;
      const before = objectsA;
      const { result } = await withFirstCreatesFaulted(emulator, kind, a, [
        'apply',
        '-auto-approve',
        '-no-color',
        ...family.replaced.map((r) => `-replace=${r}`),
      ]);
      expect(result.code, `${what}\n${result.stderr}`).to.equal(0);
      const n = family.replaced.length;
      expect(result.stdout, what).to.include(`${n} added, 0 changed, ${n} destroyed`);
      objectsA = objectsOf(await a.state(), where);
      for (const address of family.replaced) {
        const [old, now] = [before.get(address)!, objectsA.get(address)!];
        expect(now.id, `${what}: ${address} is a new object`).to.not.equal(old.id);
        expect(
          emulator.get(where.get(now.type)!.collection, now.id),
          `${what}: ${address}'s new object exists`,
        ).to.not.equal(undefined);
        expect(
          emulator.get(where.get(old.type)!.collection, old.id),
          `${what}: ${address}'s deposed object is gone`,
        ).to.equal(undefined);
      }
      // Nothing else was made: the emulator holds exactly A's objects.
      const expected = new Map(
        collections.map((c) => [
          c,
          [...objectsA.values()].filter((o) => where.get(o.type)!.collection === c).map((o) => o.id),
        ]),
      );
      for (const [c, ids] of made()) {
        const destroyedForms = ids.filter(
          (id) =>
            !expected.get(c)!.includes(id) &&
            isDestroyedForm(provider, typeOf(where, c), JSON.stringify(emulator.get(c, id))),
        );
        expect(
          ids.filter((id) => !destroyedForms.includes(id)),
          `${what}: ${c} holds exactly the state's objects`,
        ).to.deep.equal([...expected.get(c)!].sort());
      }
      notes.push(`create_before_destroy -replace under ${kind}: ${n} replaced, nothing lost or left`);
    }

    await a.expect(['destroy', '-auto-approve', '-no-color']);
    return notes;
  } finally {
    for (const ws of workspaces) ws.dispose();
    await emulator.close();
  }
}

/** Runs a command with the first request of each distinct create faulted; the result and how many were. */
async function withFirstCreatesFaulted(
  emulator: EmulatorHandle,
  kind: Kind,
  ws: Workspace,
  args: string[],
): Promise<{ result: RunResult; lost: number }> {
  const fault = emulator.faultFirstCreates(kind);
  try {
    return { result: await ws.run(args), lost: fault.count() };
  } finally {
    fault.stop();
  }
}

/** Agent tokens cannot be deleted: a destroyed one is disabled (and renamed). */
function isDestroyedForm(provider: Provider, type: string, stored: string): boolean {
  return (
    provider === 'sec' &&
    type === 'sec_agent_access_token' &&
    (JSON.parse(stored) as { tokenEnabled?: unknown }).tokenEnabled === 0
  );
}

function typeOf(where: Map<string, { collection: string }>, collection: string): string {
  return [...where].find(([, w]) => w.collection === collection)![0];
}

/** Terraform wraps diagnostics across lines with a border: one line of text, for matching. */
function squashed(text: string): string {
  return text.replace(/\n│ ?/g, ' ').replace(/\s+/g, ' ');
}

describe("acceptance: lost create answers never take over another workspace's objects (real Terraform)", function () {
  this.timeout(300_000);
  const runs = new Map<Provider, Promise<string[]>>();

  before(function () {
    requireTerraform(this);
    for (const provider of ['sec', 'vdb'] as const) {
      const run = familyRun(provider);
      run.catch(() => undefined);
      runs.set(provider, run);
    }
  });

  after(() => Promise.allSettled(runs.values()));

  for (const provider of ['sec', 'vdb'] as const) {
    it(`${provider}: two workspaces with the same names keep their own objects, and create_before_destroy replacements lose nothing, under dropped and lost answers`, async () => {
      const notes = await runs.get(provider)!;
      console.log(`      ${provider}:\n${notes.map((n) => `        ${n}`).join('\n')}`);
    });
  }
});

/** The configuration without the resources of `types` (one block each, at the top level). */
function withoutTypes(hcl: string, types: readonly string[]): string {
  return types.reduce(
    (text, type) => text.replace(new RegExp(`\\nresource "${type}" "[^"]+" \\{\\n[\\s\\S]*?\\n\\}\\n`), '\n'),
    hcl,
  );
}
