/**
 * The net that catches the next class: a property-based lifecycle test for every resource
 * type of both providers, generated from the schema DSL, against the emulators.
 *
 * Base configurations come from the examples applied once under real Terraform (test/props/bases.ts);
 * variations of them set each optional argument unset, null, empty, to its base value or to a valid
 * value its declaration names (src/schema/samples.ts), and keep, empty or make anew each block. Per
 * type, seeded (PROPERTY_SEED explores others, PROPERTY_RUNS runs more):
 * - unknowns never cause errors: a configuration that validates and plans still does with any of
 *   its values, or whole block collections (a `dynamic` block over an unknown `for_each`), unknown;
 *   and the plan refuses whatever validation refuses (what is unknown at validation is judged then);
 * - a required argument set to null is refused, naming its path;
 * - accepted at plan time ⇒ apply succeeds and settles: create, re-plan empty, update to a second
 *   accepted variation (or replace, where the plan says so), re-plan empty, import and re-plan empty,
 *   destroy, and the emulator holds nothing the run made (test/props/lifecycle.ts);
 * - under real Terraform, every type in its smallest and largest forms (test/props/forms.ts), and every
 *   importable type's objects imported with configuration Terraform generates, which must plan, import
 *   them unchanged and re-plan empty, and again with the configuration the provider writes for
 *   Terraform 1.14 (GenerateResourceConfig), rendered as Terraform renders it (test/props/generated-config.ts).
 * Configurations that validation or planning refuses are counted, not failures.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { join } from 'node:path';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import { ProviderCallError, TerraformClient, type WireDiagnostic } from '../../src/tfclient/terraform-client.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import {
  inScope,
  loadCases,
  startEmulator,
  TYPES_IN_SCOPE,
  type EmulatorHandle,
  type Provider,
} from '../acceptance/examples-workspace.js';
import {
  baselineOf,
  expectEmulatorHoldsState,
  typeRecords,
  type Baseline,
  type TypeRecord,
} from '../acceptance/ledger.js';
import { formsUnderTerraform } from './forms.js';
import { requireTerraform, BIN_DIR } from '../acceptance/terraform.js';
import { applyExamples, type Bases } from './bases.js';
import { randomFrom, requiredArguments, variationArb, withUnknowns } from './configs.js';
import { Lifecycle, emptyTally, refused, show, type Subject, type Tally } from './lifecycle.js';
import { breakingVariants } from './breaking.js';
import { describeFigures, importRoundTrip } from './generated-config.js';
import { describeKept, keepsWhatTheConfigurationDoesNotSpeakOf } from './unmodelled.js';
import { deprecatedFormsSendNothingAfterImport, holdsDeprecated } from './deprecated-import.js';
import { failOnProblems, tableProblems } from '../support/type-tables.js';
import { EdgeSweep, emptyEdgeTally, type EdgeTally } from './edges.js';
import { emptyDocumentTally, holdToDocument, type DocumentTally } from './document-rules.js';

const SEED = Number(process.env.PROPERTY_SEED ?? 12_012);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 6);
/** Random variations of each type imported with generated configuration, beside its fixed forms. */
const GENERATED_VARIATIONS = Number(process.env.GENERATED_CONFIG_VARIATIONS ?? 1);
/** Shrinking re-runs whole lifecycles; ask for it when a counterexample needs simplifying. */
const SHRINK = process.env.PROPERTY_SHRINK === '1';

/** Emulator requests that change something, as opposed to reads (and the sec token exchange, searches, query checks). */
const IS_WRITE: Record<Provider, (operation: string) => boolean> = {
  sec: (op) => !op.startsWith('GET ') && !/^POST \/api\/v2\/(access\/tokens$|.*\/(search|validate)(\?|$))/.test(op),
  vdb: (op) => !/(^|\/)(Get|List)\w*$/.test(op),
};

const DEFS = { sec: secDef, vdb: vdbDef } as const;
const PROVIDERS = (['sec', 'vdb'] as const).filter((p) => DEFS[p].resources.some((r) => inScope(r.typeName)));
/** The examples' cases of `provider` in scope: every one, or the resource types named. */
const casesOf = (provider: Provider) =>
  loadCases(provider).filter((c) => TYPES_IN_SCOPE === undefined || (!c.dataSource && inScope(c.type)));

/** One provider's emulator, its examples applied, and the Terraform-side client on the real executable. */
interface World {
  readonly provider: Provider;
  readonly emulator: EmulatorHandle;
  readonly bases: Bases;
  readonly tf: TerraformClient;
  readonly lifecycle: Lifecycle;
  readonly records: Map<string, TypeRecord>;
  /** The emulator's objects before the examples were applied. */
  readonly initial: Baseline;
  readonly tallies: Map<string, Tally & { validated: number; broken?: number }>;
  readonly edges: EdgeTally;
  readonly document: DocumentTally;
}

async function startWorld(provider: Provider): Promise<World> {
  const emulator = await startEmulator[provider]({ provisioningMs: 50 });
  try {
    const records = typeRecords(casesOf(provider));
    const initial = baselineOf(emulator, records);
    const bases = await applyExamples(provider, DEFS[provider], emulator, casesOf(provider));
    const tf = await TerraformClient.start(join(BIN_DIR, `terraform-provider-${provider}`), emulator.env);
    await tf.configure({});
    const lifecycle = new Lifecycle(tf, emulator, IS_WRITE[provider], records, baselineOf(emulator, records));
    return {
      provider,
      emulator,
      bases,
      tf,
      lifecycle,
      records,
      initial,
      tallies: new Map(),
      edges: emptyEdgeTally(),
      document: emptyDocumentTally(),
    };
  } catch (err) {
    await emulator.close();
    throw err;
  }
}

async function stopWorld(w: World): Promise<void> {
  const tallies = [...w.tallies.values()];
  const sum = (f: (t: Tally & { validated: number; broken?: number }) => number) =>
    tallies.reduce((n, t) => n + f(t), 0);
  if (tallies.length > 0) {
    console.log(
      `      ${w.provider}: ${tallies.length} types; variations validated ${sum((t) => t.validated)}, refused ${sum((t) => t.rejected)}; ` +
        `created ${sum((t) => t.created)}, updated ${sum((t) => t.updated)} (${sum((t) => t.silentUpdates)} sending nothing), replaced ${sum((t) => t.replaced)}, imported ${sum((t) => t.imported)}; ` +
        `values breaking a form or a limit refused at validation ${sum((t) => t.broken ?? 0)}`,
    );
  }
  const e = w.edges;
  if (e.arguments > 0)
    console.log(
      `      ${w.provider}: arguments at their edges ${e.arguments}; configurations the plan judged ${e.asked}, ` +
        `accepted and applied ${e.applied}; plans that passed and then failed ${e.findings.length}`,
    );
  const d = w.document;
  if (d.rules > 0)
    console.log(
      `      ${w.provider}: rules of the API's document on the fields the creates sent ${d.rules}; traced to an ` +
        `argument ${d.reached} (${[...d.byKind].map(([kind, n]) => `${kind} ${n}`).join(', ')}), refused at plan ` +
        `just past the rule ${d.refused}; bounds the plan takes at the bound ${d.acceptedAtBound}, refuses there ` +
        `(stricter): ${[...d.stricter].map(([why, n]) => `${n} (${why})`).join(', ') || 'none'}; not traced: ` +
        `${[...d.notReached].map(([why, n]) => `${n} (${why})`).join(', ')}`,
    );
  try {
    await w.tf.close();
    // The objects the examples' resources refer to go too, and the emulator is as it was.
    await w.bases.examples.ws.expect(['destroy', '-auto-approve', '-parallelism=20']);
    expectEmulatorHoldsState(w.emulator, w.records, w.initial, new Map(), `${w.provider} after every test`);
  } finally {
    w.bases.examples.dispose();
    await w.emulator.close();
  }
}

describe('properties of every resource type, generated from the schema DSL', function () {
  this.timeout(900_000);
  const worlds = new Map<Provider, World>();
  const world = (provider: Provider) => worlds.get(provider) ?? expect.fail(`${provider}: not started`);

  before(async function () {
    requireTerraform(this);
    // Both providers side by side: each applies its examples under Terraform.
    const started = await Promise.allSettled(PROVIDERS.map(async (p) => worlds.set(p, await startWorld(p))));
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  });

  after(async () => {
    await Promise.all([...worlds.values()].map(stopWorld));
  });

  for (const provider of PROVIDERS) {
    const allTypes = DEFS[provider].resources.map((r) => r.typeName).sort();
    const types = allTypes.filter(inScope);
    /** A type's seeds follow its place among all the provider's types, so a scoped run tries what CI tries. */
    const seedOf = (type: string) => allTypes.indexOf(type);
    // Types whose objects the platform does not keep (the provider makes them alone).
    const local = new Set(
      casesOf(provider)
        .filter((c) => c.local)
        .map((c) => c.type),
    );
    /** sec: type → the argument whose update kept the console's fields. */
    const kept = new Map<string, string>();

    describe(provider, () => {
      after(() => {
        if (kept.size > 0)
          console.log(`      ${provider}: the console's fields kept through an update: ${describeKept(kept)}`);
      });
      const subject = (type: string): Subject =>
        world(provider).bases.subjects.find((x) => x.type === type) ?? expect.fail(`${type}: no example applied`);
      const tallyOf = (type: string) => {
        const { tallies } = world(provider);
        return tallies.get(type) ?? tallies.set(type, { ...emptyTally(), validated: 0 }).get(type)!;
      };

      it('has an applied example for every resource type, whose configuration validation and planning accept', async () => {
        const w = world(provider);
        failOnProblems(
          `the ${provider} resource types and their applied examples`,
          tableProblems(
            {
              what: `${provider} resource type`,
              where: `examples/${provider}/ (each example with its acceptance case, test/acceptance/CASES.md)`,
              noun: 'example',
              entry: (type) =>
                `examples/${provider}/${type}/main.tf and its case test/acceptance/cases/${provider}/${type}.json`,
            },
            types,
            w.bases.subjects.map((s) => s.type),
          ),
        );
        for (const s of w.bases.subjects) {
          const verdict = await w.lifecycle.verdict(s.type, s.base);
          expect(verdict.accepted ? [] : verdict.why, `${s.type}: ${show(s.base)}`).to.deep.equal([]);
        }
      });

      for (const type of types) {
        const i = seedOf(type);
        it(`${type}: unknowns never cause errors; a required argument set to null is refused with its path`, async () => {
          const { tf, lifecycle } = world(provider);
          const s = subject(type);
          const block = tf.resourceSchema(type).block;
          const tally = tallyOf(type);
          await fc.assert(
            fc.asyncProperty(variationArb(s.fields, s.base), fc.integer(), async (plain, seed) => {
              const config = lifecycle.config(type, plain);
              const refusal = (await errorsOf(tf, type, config)).map((d) => `${d.summary} at ${d.path}`);
              if (refusal.length > 0) {
                // The plan judges again what validation judged (values unknown then are known now).
                const atPlan = await planErrorsOf(tf, type, config);
                expect(atPlan, `plan of ${show(plain)}, which validation refused`).to.include.members(refusal);
                return refused(tally, refusal);
              }
              tally.validated++;
              for (const required of requiredArguments(s.fields, plain)) {
                const errors = await errorsOf(tf, type, lifecycle.config(type, required.nulled(plain)));
                const named = errors.some(
                  (d) => d.summary === 'Missing configuration for required argument' && d.path === required.path,
                );
                expect(
                  named,
                  `${required.path} set to null: ${errors.map((d) => `${d.summary} at ${d.path}`).join('; ') || 'no error'}`,
                ).to.equal(true);
              }
              // Planning may refuse what depends on the provider's configuration; what it accepts known,
              // it accepts with values unknown.
              const known = await lifecycle.verdict(type, plain);
              if (!known.accepted) return refused(tally, known.why);
              const unknown = withUnknowns(block, config, randomFrom(seed), 0.3);
              const errors = await errorsOf(tf, type, unknown);
              expect(errors, `validation of ${show(plain)} with unknowns`).to.deep.equal([]);
              await tf.plan(type, null, unknown);
            }),
            { seed: SEED + i, numRuns: RUNS * 3, endOnFailure: !SHRINK },
          );
          expect(
            tally.validated,
            `variations that validate (the generator must reach validation); refused for ${reasons(tally)}`,
          ).to.be.greaterThan(0);
        });

        it(`${type}: every value that breaks a form or a platform limit is refused at validation, at its path, before anything is sent`, async () => {
          const w = world(provider);
          const s = subject(type);
          const variants = breakingVariants(s.fields, s.base, DEFS[provider].limits);
          const before = w.emulator.operations().length;
          for (const v of variants) {
            const errors = await errorsOf(w.tf, type, w.lifecycle.config(type, v.config));
            const shown = errors.map((d) => `${d.summary} at ${d.path}: ${d.detail}`).join('; ') || 'no error';
            expect(
              errors.some((d) => d.path === v.path),
              `${v.what}: ${shown}`,
            ).to.equal(true);
            expect(shown, v.what).to.not.include('Internal provider error');
            // The plan refuses it too: nothing the validation judged reaches the API.
            expect(
              (await planErrorsOf(w.tf, type, w.lifecycle.config(type, v.config))).length,
              `plan of ${v.what}`,
            ).to.be.greaterThan(0);
          }
          expect(w.emulator.operations().slice(before), 'requests sent for refused values').to.deep.equal([]);
          tallyOf(type).broken = variants.length;
        });

        it(`${type}: every argument at its edges: what the plan accepts, the platform takes and gives back`, async () => {
          const w = world(provider);
          const before = w.edges.findings.length;
          await new EdgeSweep(w.lifecycle, DEFS[provider].limits, w.edges, emptyTally()).sweep(subject(type));
          const findings = w.edges.findings.slice(before);
          expect(findings, `plans that passed, then failed or did not settle:\n${findings.join('\n')}`).to.deep.equal(
            [],
          );
        });

        if (provider === 'sec' && !local.has(type))
          it(`${type}: every rule of the API's document an argument reaches is refused at plan just past it`, async () => {
            const w = world(provider);
            const before = w.document.findings.length;
            await holdToDocument(w.lifecycle, w.emulator, subject(type), emptyTally(), w.document);
            const findings = w.document.findings.slice(before);
            expect(findings, findings.join('\n')).to.deep.equal([]);
          });

        // sec: every update sends the whole object (docs/api/sec.md, "Updates replace the whole object").
        if (provider === 'sec' && !local.has(type))
          it(`${type}: an update never erases what the platform holds and the configuration does not speak of`, async () => {
            const w = world(provider);
            const run = {
              lifecycle: w.lifecycle,
              emulator: w.emulator,
              records: w.records,
              isWrite: IS_WRITE[provider],
            };
            kept.set(type, await keepsWhatTheConfigurationDoesNotSpeakOf(run, subject(type)));
          });

        it(`${type}: accepted at plan time ⇒ create, update, import and destroy succeed, each re-plan is empty`, async () => {
          const s = subject(type);
          const tally = tallyOf(type);
          const variation = variationArb(s.fields, s.base);
          await fc.assert(
            fc.asyncProperty(variation, fc.option(variation, { freq: 4 }), (a, b) =>
              world(provider).lifecycle.run(s, a, b, tally),
            ),
            { seed: SEED + 1000 + i, numRuns: RUNS, endOnFailure: !SHRINK },
          );
          expect(
            tally.created,
            `variations created (the generator must reach the apply); refused for ${reasons(tally)}`,
          ).to.be.greaterThan(0);
        });
      }
    });
  }

  it('every importable type with deprecated arguments, made in each deprecated form and imported: a configuration in that form sends nothing and re-plans empty', async () => {
    const counted: string[] = [];
    for (const provider of PROVIDERS) {
      const w = world(provider);
      const run = { lifecycle: w.lifecycle, emulator: w.emulator, isWrite: IS_WRITE[provider] };
      for (const s of w.bases.subjects.filter((x) => holdsDeprecated(x.fields) && x.case.importId !== undefined)) {
        const { ran, refused } = await deprecatedFormsSendNothingAfterImport(run, s);
        counted.push(`${s.type} ${ran}${refused > 0 ? ` (${refused} refused by the platform)` : ''}`);
      }
    }
    console.log(`      deprecated forms made, imported and planned: ${counted.join(', ')}`);
    // sec_alert_rule has deprecated forms the platform takes (sec_policy_exception's, beside its base's
    // plain values, only the platform refuses; the executable test makes one of its own).
    if (inScope('sec_alert_rule'))
      expect(
        counted.find((c) => c.startsWith('sec_alert_rule ')),
        'sec_alert_rule',
      ).to.match(/^sec_alert_rule [1-9]/);
  });

  describe('under real Terraform', () => {
    const roundTrip =
      'import → generated configuration → plan: every importable type in each of its forms, imported from `import` ' +
      'blocks alone; what Terraform writes plans (a required secret filled in), imports unchanged, re-plans empty; ' +
      'so does what the provider writes (GenerateResourceConfig), its secrets set write-only';
    it(roundTrip, async () => {
      const runs = await Promise.allSettled(
        PROVIDERS.map((p) => {
          const w = world(p);
          const run = { ...w, def: DEFS[p], subjects: w.bases.subjects, seed: SEED, variations: GENERATED_VARIATIONS };
          return importRoundTrip(run);
        }),
      );
      for (const [i, run] of runs.entries()) {
        if (run.status === 'fulfilled') console.log(`      ${describeFigures(PROVIDERS[i]!, run.value)}`);
      }
      const failed = runs.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    });

    it('every type in its largest accepted form, then with its optional arguments removed, re-planned, imported, re-planned, destroyed; then built up again from its smallest form', async () => {
      // Both run to the end even when one fails, so that neither is still applying when the other's
      // failure ends the test and the clean-up begins.
      const runs = await Promise.allSettled(
        PROVIDERS.map((p) => {
          const w = world(p);
          return formsUnderTerraform({
            provider: p,
            subjects: w.bases.subjects,
            lifecycle: w.lifecycle,
            emulator: w.emulator,
            records: w.records,
          });
        }),
      );
      const failed = runs.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    });
  });
});

/** The commonest reasons configurations were refused, for a failure message. */
function reasons(tally: Tally): string {
  return [...tally.refusals]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 5)
    .map(([why, n]) => `${why} (${n})`)
    .join('; ');
}

/** The errors PlanResourceChange answers for a create of `config`, as `<summary> at <path>`. */
async function planErrorsOf(tf: TerraformClient, type: string, config: ObjectValue): Promise<string[]> {
  try {
    await tf.plan(type, null, config);
    return [];
  } catch (err) {
    if (err instanceof ProviderCallError) return err.diagnostics.map((d) => `${d.summary} at ${d.path}`);
    throw err;
  }
}

/** The error diagnostics ValidateResourceConfig answers. */
async function errorsOf(tf: TerraformClient, type: string, config: ObjectValue): Promise<WireDiagnostic[]> {
  try {
    await tf.validateResource(type, config);
    return [];
  } catch (err) {
    if (err instanceof ProviderCallError) return err.diagnostics;
    throw err;
  }
}
