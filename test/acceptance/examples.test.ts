/**
 * Table-driven real-Terraform acceptance test over every example's case, `test/acceptance/cases/<provider>/<type>.json`
 * (format: CASES.md). All examples of a provider run together in one workspace, one module per
 * example, against one emulator, so the whole table costs about ten Terraform commands; each step
 * checks what the emulator holds.
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadProviderDef } from '../../src/providers/describe.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import type { StateResource, Workspace } from './terraform.js';
import {
  ExamplesWorkspace,
  expectImportsSettled,
  inScope,
  TYPES_IN_SCOPE,
  at,
  expectFields,
  fill,
  heldObject,
  loadCases,
  startEmulator,
  type EmulatorHandle,
  type Provider,
} from './examples-workspace.js';

/** Walks a state value beside Terraform's `sensitive_values` marks, collecting marked strings. */
function collectSensitive(value: unknown, marks: unknown, out: string[]): void {
  if (marks === true) {
    if (typeof value === 'string') out.push(value);
    else if (value !== null && typeof value === 'object')
      for (const v of Object.values(value)) collectSensitive(v, true, out);
    return;
  }
  if (marks === null || typeof marks !== 'object' || value === null || typeof value !== 'object') return;
  for (const [k, m] of Object.entries(marks)) collectSensitive((value as Record<string, unknown>)[k], m, out);
}

/** The resources of the example modules (not the root), by address. */
async function moduleState(ws: Workspace): Promise<Map<string, StateResource>> {
  return new Map([...(await ws.state())].filter(([address]) => address.startsWith('module.')));
}

/**
 * Each provider's cases in scope: every one, or those of the types a scoped run names (TYPES_IN_SCOPE), a data
 * source's as `data_<type>` or by its type.
 */
const casesInScope = (provider: Provider) =>
  loadCases(provider).filter((c) => inScope(c.type) || inScope(c.type.replace(/^data_/, '')));
const CASES = { sec: casesInScope('sec'), vdb: casesInScope('vdb') };

for (const cli of ACCEPTANCE_CLIS)
  for (const provider of (['sec', 'vdb'] as const).filter((p) => TYPES_IN_SCOPE === undefined || CASES[p].length > 0)) {
    describe(`acceptance: examples/${provider} under real ${cli.name}`, function () {
      this.timeout(900_000);
      const cases = CASES[provider];
      const resources = cases.filter((c) => !c.dataSource);
      let emulator: EmulatorHandle;
      let examples: ExamplesWorkspace;
      let ws: Workspace;
      let keys = new Map<string, string>();
      const addr = (c: (typeof cases)[number]) => examples.address(c);
      const moduleFile = (c: (typeof cases)[number]) => examples.moduleFile(c);
      const substitute = (c: (typeof cases)[number], from: string, to: string) => examples.substitute(c, from, to);

      /** The credentials the provider was given and every sensitive value in the state. */
      async function secretsInUse(): Promise<string[]> {
        const secrets = Object.entries(emulator.env)
          .filter(([k]) => /KEY|SECRET|TOKEN/.test(k))
          .map(([, v]) => v);
        for (const res of (await moduleState(ws)).values()) collectSensitive(res.values, res.sensitive_values, secrets);
        return secrets.filter((s) => s.length >= 8);
      }

      async function recordKeys(): Promise<Map<string, StateResource>> {
        const state = await moduleState(ws);
        keys = new Map();
        for (const c of resources) {
          const res = state.get(addr(c));
          expect(res, `${addr(c)} is in the state`).to.not.equal(undefined);
          // Keys may be dotted paths into nested blocks, e.g. "policy.0.id".
          const key = at(res!.values, c.key);
          expect(key, `${addr(c)}: state attribute ${c.key}`)
            .to.be.a('string')
            .and.not.equal('');
          keys.set(c.type, key as string);
        }
        return state;
      }

      before(async function () {
        const options = cli.workspace(this);
        if (cases.length === 0) throw new Error(`no test/acceptance/cases/${provider}/*.json: nothing to run`);
        emulator = await startEmulator[provider]();
        examples = await ExamplesWorkspace.create(provider, cases, emulator.env, options);
        ws = examples.ws;
      });

      after(async () => {
        examples?.dispose();
        await emulator?.close();
      });

      it('creates every example, as the emulator confirms', async () => {
        await ws.expect(['apply', '-auto-approve', '-parallelism=20']);
        const state = await recordKeys();
        for (const c of resources) {
          const stored = heldObject(c, emulator, state.get(addr(c))!.values);
          expect(stored, `${c.type}: the emulator holds the object`).to.not.equal(undefined);
          expectFields(stored, c.created, c.type);
        }
        for (const c of cases.filter((d) => d.dataSource)) {
          const res = state.get(`module.${c.type}.${c.address}`);
          expect(res, `${c.type}: data source read`).to.not.equal(undefined);
          expectFields(res!.values, c.expectState, c.type);
        }
      });

      it('logs no secret, even at TF_LOG=trace', async () => {
        const r = await ws.run(['plan', '-parallelism=20'], { TF_LOG: 'trace' });
        const output = `${r.stdout}\n${r.stderr}`;
        expect(output, 'the trace log has provider lines').to.include(`terraform-provider-${provider}`);
        const secrets = await secretsInUse();
        expect(secrets, 'the provider credentials at least').to.not.be.empty;
        for (const secret of secrets)
          expect(output.includes(secret), `a secret (${secret.length} chars) appears in the trace output`).to.equal(
            false,
          );
      });

      it('re-plans with no changes', async () => {
        await ws.expect(['plan', '-detailed-exitcode', '-parallelism=20'], 0);
      });

      it('re-plans with no changes and no error with `lifecycle { ignore_changes = all }` on every resource', async () => {
        // Terraform then sends the prior state as the configuration, computed-only values nulled: an
        // SDK-style `id`, platform-filled arguments and every default arrive as if the user wrote them.
        const originals = new Map(cases.map((c) => [c, readFileSync(moduleFile(c), 'utf8')]));
        try {
          for (const [c, text] of originals) writeFileSync(moduleFile(c), withIgnoreChangesAll(text));
          await ws.expect(['plan', '-detailed-exitcode', '-parallelism=20'], 0);
        } finally {
          for (const [c, text] of originals) writeFileSync(moduleFile(c), text);
        }
      });

      it('updates an argument of every example (in place or by replacement)', async () => {
        const updated = resources.filter((c) => c.update);
        for (const c of updated) substitute(c, c.update!.from, c.update!.to);
        const before = new Map(keys);
        await ws.expect(['apply', '-auto-approve', '-parallelism=20']);
        const state = await recordKeys();
        for (const c of updated) {
          const key = keys.get(c.type)!;
          if (c.update!.replaces) expect(key, `${c.type}: replaced`).to.not.equal(before.get(c.type));
          else expect(key, `${c.type}: updated in place`).to.equal(before.get(c.type));
          expectFields(heldObject(c, emulator, state.get(addr(c))!.values), c.update!.expect, `${c.type} after update`);
        }
        await ws.expect(['plan', '-detailed-exitcode', '-parallelism=20'], 0);
      });

      it('imports every importable example into an emptied state, then re-plans with no changes', async () => {
        const importable = resources.filter((c) => c.importId);
        if (importable.length === 0) return;
        const state = await moduleState(ws);
        const blocks = importable.map(
          (c) =>
            `import {\n  to = ${addr(c)}\n  id = ${JSON.stringify(fill(c.importId!, state.get(addr(c))!.values))}\n}\n`,
        );
        await ws.expect(['state', 'rm', ...importable.map(addr)]);
        writeFileSync(join(ws.dir, 'config', 'imports.tf'), blocks.join('\n'));
        await ws.expect(['apply', '-auto-approve', '-parallelism=20']);
        rmSync(join(ws.dir, 'config', 'imports.tf'));
        await expectImportsSettled(ws, importable, addr);
        // The imports adopted the existing objects: nothing was created or lost on the emulator.
        for (const c of importable.filter((d) => !d.local))
          expect(emulator.get(c.collection, keys.get(c.type)!), `${c.type} still there`).to.not.equal(undefined);
        await recordKeys();
      });

      it('detects objects deleted behind its back and recreates them', async () => {
        // A local object has nothing on the platform to delete behind Terraform's back.
        const drifting = resources.filter((c) => !c.local && (c.drift ?? 'delete') === 'delete');
        if (drifting.length === 0) return;
        for (const c of drifting)
          expect(emulator.remove(c.collection, keys.get(c.type)!), `${c.type}: removed from the emulator`).to.equal(
            true,
          );
        const plan = await ws.expect(['plan', '-detailed-exitcode', '-no-color', '-parallelism=20'], 2);
        for (const c of drifting)
          expect(plan.stdout, `${c.type}: plan recreates it`).to.include(`# ${addr(c)} will be created`);
        await ws.expect(['apply', '-auto-approve', '-parallelism=20']);
        await recordKeys();
        // Objects keyed by a name the user chose come back under the same key; the plan above
        // already showed they were created anew.
        for (const c of drifting)
          expect(emulator.get(c.collection, keys.get(c.type)!), `${c.type}: recreated`).to.not.equal(undefined);
        await ws.expect(['plan', '-detailed-exitcode', '-parallelism=20'], 0);
      });

      it('rejects a bad value in every example at plan time, naming the attribute', async () => {
        const bad = cases.filter((c) => c.invalid);
        if (bad.length === 0) return;
        const saved = new Map(bad.map((c) => [c.type, readFileSync(moduleFile(c), 'utf8')]));
        for (const c of bad) substitute(c, c.invalid!.from, c.invalid!.to);
        const plan = await ws.expect(['plan', '-no-color', '-parallelism=20'], 1);
        for (const c of bad)
          expect(plan.stderr, `${c.type}: error for the bad value`).to.match(new RegExp(c.invalid!.error));
        for (const c of bad) writeFileSync(moduleFile(c), saved.get(c.type)!);
      });

      it('takes an `id` the platform assigned only as the object’s own: that plans no change, another is refused at plan naming both', async () => {
        // Every example whose type has an SDK-style `id` (platformAssigned), written into its resource
        // block as the code `pulumi import` prints does.
        const def = await loadProviderDef(provider);
        const assigned = cases.filter((c) => {
          const id = def.resources.find((r) => r.typeName === c.type)?.schema.fields.id;
          return !c.dataSource && id?.kind === 'attr' && id.options.platformAssigned === true;
        });
        if (assigned.length === 0) return;
        const state = await moduleState(ws);
        const ids = new Map(assigned.map((c) => [c, String(state.get(addr(c))!.values.id)]));
        const saved = new Map(assigned.map((c) => [c, readFileSync(moduleFile(c), 'utf8')]));
        const withId = (c: (typeof cases)[number], id: string) => {
          const head = `resource "${c.address.split('.')[0]}" "${c.address.split('.')[1]}" {`;
          writeFileSync(moduleFile(c), saved.get(c)!.replace(head, `${head}\n  id = ${JSON.stringify(id)}`));
        };
        try {
          for (const c of assigned) withId(c, ids.get(c)!);
          await ws.expect(['plan', '-detailed-exitcode', '-no-color', '-parallelism=20'], 0);
          for (const c of assigned) withId(c, `${ids.get(c)}-other`);
          const refused = await ws.expect(['plan', '-no-color', '-parallelism=20'], 1);
          const text = refused.stderr.replace(/[│╷╵]/g, ' ').replace(/\s+/g, ' ');
          for (const c of assigned) {
            expect(text, `${c.type}: the object's id`).to.include(`is "${ids.get(c)}"`);
            expect(text, `${c.type}: the configured id`).to.include(`says "${ids.get(c)}-other"`);
          }
          expect(text.match(/Invalid attribute "id"/g)?.length, 'one error per example').to.equal(assigned.length);
        } finally {
          for (const [c, text] of saved) writeFileSync(moduleFile(c), text);
        }
      });

      it('destroys everything, as the emulator confirms', async () => {
        await ws.expect(['destroy', '-auto-approve', '-parallelism=20']);
        for (const c of resources.filter((d) => !d.local)) {
          const stored = emulator.get(c.collection, keys.get(c.type)!);
          if ((c.destroyed ?? 'absent') === 'absent')
            expect(stored, `${c.type}: gone from the emulator`).to.equal(undefined);
          else expectFields(stored, c.destroyed as Record<string, unknown>, `${c.type} after destroy`);
        }
        expect((await moduleState(ws)).size).to.equal(0);
      });
    });
  }

/**
 * `lifecycle { ignore_changes = all }` in every resource block of `text`: added to a resource's own
 * lifecycle block where it has one (Terraform takes one per resource), otherwise as a new block.
 */
function withIgnoreChangesAll(text: string): string {
  const lifecycle = /^(\s*lifecycle\s*\{)/m;
  return text.replace(/^(resource\s+"[^"]+"\s+"[^"]+"\s*\{)([\s\S]*?^\})/gm, (_all, head: string, body: string) =>
    lifecycle.test(body)
      ? head + body.replace(lifecycle, '$1\n    ignore_changes = all')
      : `${head}\n  lifecycle {\n    ignore_changes = all\n  }\n${body}`,
  );
}
