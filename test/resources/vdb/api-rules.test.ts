/**
 * What the plan accepts, the vdb platform accepts: the plan's checks of the API's field rules are
 * derived from the rules (src/resources/vdb/rules.ts), and this file holds them to it two ways.
 *
 * - Coverage: every rule of the .proto files is checked by some attribute, or named below with the
 *   reason no attribute needs to (the provider sets that field itself, or a resource checks the rule
 *   where several fields meet). A rule added to a .proto fails here until it is one or the other.
 * - Agreement: for every rule an attribute checks, values at and around its bounds and forms are
 *   judged by the derived checks and by protovalidate itself over the same descriptors the emulator
 *   validates with; they must agree, except where the plan is stricter on purpose (ids in lower case).
 */
import { createValidator } from '@bufbuild/protovalidate';
import { expect } from 'chai';
import type { Validator } from '../../../packages/framework/src/schema/define.js';
import vdbDef from '../../../src/resources/vdb/index.js';
import { apiRuleNames, checkedApiRules, checksOf } from '../../../src/resources/vdb/rules.js';
import { heldRules, planErrors } from '../../../src/resources/vdb/rules-held.js';
import { NOT_CHECKED_AT_PLAN } from '../../../src/resources/vdb/rules-unchecked.js';
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { pathToString } from '@bufbuild/protobuf/reflect';
import { VDB_FIELD_ENUMS, VDB_FIELD_RULES, VDB_MESSAGE_RULES } from '../../../src/wire/vdb-field-rules.js';
import { vdbRulesRegistry } from '../../../src/wire/vdb-rules.js';
import { candidates, platformAccepts } from './rule-values.js';

const PACKAGE = 'vdb.cloud.';

describe('vdb: the plan checks the API field rules of proto/vdb', () => {
  // The contract's size in every suite run's log, so that a rule lost or gained shows.
  after(() => {
    const names = apiRuleNames();
    const checked = names.filter((name) => checkedApiRules().has(name)).length;
    const held = names.filter((name) => heldRules().has(name)).length;
    const reasoned = names.filter(
      (name) => !checkedApiRules().has(name) && NOT_CHECKED_AT_PLAN.some(([pattern]) => pattern.test(name)),
    ).length;
    const messageRules = Object.values(VDB_MESSAGE_RULES).flatMap((rule) => (rule as { cel?: unknown[] }).cel ?? []);
    console.log(
      `vdb contract: ${names.length} rules on ${Object.keys(VDB_FIELD_RULES).length} fields; ${checked} checked ` +
        `at plan, ${held} held by the code or schema that says so, ${reasoned} no argument reaches; ` +
        `${messageRules.length} message rules, each held by the code that says so`,
    );
  });

  it('every rule is checked by an attribute, held by the code or schema that says so, or says why none needs to', () => {
    const checked = checkedApiRules();
    const unexplained = apiRuleNames().filter(
      (name) =>
        !checked.has(name) && !heldRules().has(name) && !NOT_CHECKED_AT_PLAN.some(([pattern]) => pattern.test(name)),
    );
    expect(unexplained, 'rules no attribute checks: link them (apiRules), hold them, or say why not').to.deep.equal([]);
    const stale = NOT_CHECKED_AT_PLAN.filter(([pattern]) =>
      apiRuleNames().every((name) => checked.has(name) || heldRules().has(name) || !pattern.test(name)),
    ).map(([pattern]) => pattern.source);
    expect(stale, 'reasons that no longer name an unchecked rule').to.deep.equal([]);
    const twice = [...heldRules().keys()].filter((name) => checked.has(name));
    expect(twice, 'rules both an attribute and a claim check: drop the claim').to.deep.equal([]);
    expect(checked.size, 'rules checked at plan').to.be.above(100);
  });

  it('a bound or a form on a field an argument sets is derived, never held by hand', () => {
    // A hand-written check of one would escape the agreement test below: such rules are apiRules'.
    const BOUND_OR_FORM =
      /#(u?int(32|64)|s?fixed(32|64)|sint(32|64)|double|float|string|bytes|enum|repeated\.(min|max)_items)$/;
    const byHand = apiRuleNames().filter((name) => heldRules().has(name) && BOUND_OR_FORM.test(name));
    expect(byHand, 'derive these with apiRules').to.deep.equal([]);
    // The rule has something to hold: bounds and forms no argument sets.
    expect(
      apiRuleNames().filter((name) => !checkedApiRules().has(name) && BOUND_OR_FORM.test(name)).length,
    ).to.be.above(0);
  });

  it('every message rule is held by the code that says so, and every claim names a rule of the .proto files', () => {
    const messageRules = Object.entries(VDB_MESSAGE_RULES).flatMap(([message, rule]) =>
      ((rule as { cel?: { id: string }[] }).cel ?? []).map((cel) => `${message}#${cel.id}`),
    );
    const inCode = [...heldRules()].filter(([, held]) => 'code' in held).map(([name]) => name);
    expect(messageRules.filter((name) => !inCode.includes(name))).to.deep.equal([]);
    const rules = new Set([...apiRuleNames(), ...messageRules]);
    expect(
      [...heldRules().keys()].filter((name) => !rules.has(name)),
      'claims of no rule',
    ).to.deep.equal([]);
  });

  describe('each rule held in code agrees with protovalidate on its samples', () => {
    const registry = vdbRulesRegistry();
    const validator = createValidator({ registry });
    const claims = new Set([...heldRules().values()].flatMap((held) => ('code' in held ? [held.code] : [])));
    for (const claim of claims)
      it(`${claim.message}: ${claim.rules.join(', ')} (${claim.where})`, () => {
        const schema = registry.getMessage(`${PACKAGE}${claim.message}`)!;
        const broken = (message: unknown): string[] => {
          const result = validator.validate(schema, fromJson(schema, message as JsonValue));
          if (result.kind === 'error') throw result.error;
          if (result.kind === 'valid') return [];
          return claim.rules.filter((rule) => result.error.violations.some((v) => violates(v, rule)));
        };
        const disagreements: string[] = [];
        const reached = new Set<string>();
        let refused = 0;
        let unsent = 0;
        for (const sample of claim.samples()) {
          const problems = planErrors(claim, sample);
          const sent = claim.sent(sample);
          if (problems.length > 0) refused++;
          if (sent === undefined) unsent++;
          if (claim.planReports) {
            // The plan refuses exactly the samples whose message, as written, breaks a rule.
            const written = (claim.literal ?? claim.sent)(sample);
            const breaks = written === undefined ? [] : broken(written);
            for (const rule of breaks) reached.add(rule);
            if (problems.length > 0 !== breaks.length > 0)
              disagreements.push(
                `${JSON.stringify(sample)}: the plan ${problems.length ? `refuses (${problems.join('; ')})` : 'takes it'}, ` +
                  `protovalidate ${breaks.length ? `refuses (${breaks.join(', ')})` : 'takes'} ${JSON.stringify(written)}`,
              );
          }
          // What is sent for a sample the plan takes meets the rules.
          const sentBreaks = problems.length === 0 && sent !== undefined ? broken(sent) : [];
          if (sentBreaks.length > 0)
            disagreements.push(
              `${JSON.stringify(sample)}: sent as ${JSON.stringify(sent)}, which breaks ${sentBreaks}`,
            );
        }
        expect(disagreements).to.deep.equal([]);
        if (claim.planReports) {
          expect([...reached].sort(), 'rules some sample breaks').to.deep.equal([...claim.rules].sort());
          expect(refused, 'samples the plan refuses').to.be.above(0);
        } else expect(unsent, 'samples the provider sends nothing for').to.be.above(0);
      });
  });

  describe("each rule held by a schema is held by that resource's schema", () => {
    for (const [name, held] of heldRules())
      if ('schema' in held)
        it(`${name.slice(PACKAGE.length)}: ${held.where}`, () => {
          const { type, attribute, as } = held.schema;
          const resource = vdbDef.resources.find((r) => r.typeName === type);
          expect(resource, type).to.not.equal(undefined);
          let field: unknown = { kind: 'block', fields: resource!.schema.fields };
          for (const step of attribute.split('.')) field = (field as { fields: Record<string, unknown> }).fields[step];
          const def = field as { kind: string; options: { min?: number; max?: number; distinct?: boolean } };
          expect(def, `${type}.${attribute}`).to.not.equal(undefined);
          if (as === 'required')
            expect(def.kind === 'block' && (def.options.min ?? 0) >= 1, 'a required block').to.equal(true);
          if (as === 'at most one')
            expect(def.kind === 'block' && def.options.max === 1, 'at most one block').to.equal(true);
          if (as === 'distinct')
            expect(def.kind === 'attr' && def.options.distinct === true, 'a distinct list').to.equal(true);
        });
  });

  describe('each derived check agrees with protovalidate on the bounds and forms of its rule', () => {
    const tally = { fields: 0, values: 0, agreeing: 0, stricter: 0 };
    after(() => {
      const rules = apiRuleNames().length;
      process.stdout.write(
        `      vdb: ${rules} field rules (${checkedApiRules().size} checked at plan), ${tally.fields} fields, ` +
          `${tally.values} values tried, ${tally.agreeing} verdicts agreeing, ${tally.stricter} where the plan ` +
          'is stricter on purpose (ids in lower case)\n',
      );
    });
    const registry = vdbRulesRegistry();
    const validator = createValidator({ registry });
    const fields = [...new Set([...checkedApiRules()].map((name) => name.split('#')[0]!))].sort();

    for (const full of fields) {
      it(full.slice(PACKAGE.length), () => {
        const [typeName, fieldName] = [full.slice(0, full.lastIndexOf('.')), full.slice(full.lastIndexOf('.') + 1)];
        const message = registry.getMessage(typeName)!;
        const field = message.fields.find((f) => f.name === fieldName)!;
        const rules = checkedPart(full);
        const checks = checksOf(full.slice(PACKAGE.length), rules);
        const disagreements: string[] = [];
        let accepted = 0;
        let refused = 0;
        for (const value of candidates(full, field, rules, VDB_FIELD_ENUMS)) {
          const plan = checks.every((check) => check.check(value as never) === undefined);
          // A list whose `unique` rule no attribute checks is a distinct one: it is sent with each value once.
          const unique = (VDB_FIELD_RULES[full] as { repeated?: { unique?: boolean } }).repeated?.unique === true;
          const sentOnce = unique && Array.isArray(value) && !checkedApiRules().has(`${full}#repeated.unique`);
          const sent = sentOnce ? [...new Set(value as unknown[])] : value;
          const platform = platformAccepts(validator, message, field, full, sent, VDB_FIELD_ENUMS);
          if (plan) accepted++;
          else refused++;
          // The plan may be stricter only where a form says so: ids in lower case, as the platform writes them.
          const stricterOnPurpose = !plan && platform && /lower case/.test(problems(checks, value));
          tally.values++;
          if (plan === platform) tally.agreeing++;
          if (stricterOnPurpose) tally.stricter++;
          if (plan !== platform && !stricterOnPurpose)
            disagreements.push(
              `${JSON.stringify(value)}: plan ${plan ? 'accepts' : 'refuses'}, platform ${platform ? 'accepts' : 'refuses'}`,
            );
        }
        tally.fields++;
        expect(disagreements).to.deep.equal([]);
        expect(accepted, 'values the rule accepts').to.be.above(0);
        expect(refused, 'values the rule refuses').to.be.above(0);
      });
    }
  });
});

/** The rules of `full` some attribute checks (a list's bounds, say, and not the CEL rules of its items). */
function checkedPart(full: string): Record<string, Record<string, unknown>> {
  const checked = checkedApiRules();
  const out: Record<string, Record<string, unknown>> = {};
  for (const [kind, rule] of Object.entries(VDB_FIELD_RULES[full] as Record<string, Record<string, unknown>>)) {
    if (kind === 'cel') {
      const cels = (rule as unknown as { id: string }[]).filter((cel) => checked.has(`${full}#cel.${cel.id}`));
      if (cels.length > 0) out.cel = cels as unknown as Record<string, unknown>;
    } else if (kind === 'repeated') {
      const kept = Object.entries(rule).filter(([key]) => checked.has(`${full}#repeated.${key}`));
      if (kept.length > 0) out.repeated = Object.fromEntries(kept);
    } else if (checked.has(`${full}#${kind}`)) out[kind] = rule;
  }
  return out;
}

function problems(checks: readonly Validator<unknown>[], value: unknown): string {
  return checks.map((check) => check.check(value as never) ?? '').join(' ');
}

/**
 * Whether a protovalidate violation is of `rule`, named as a claim names it: a message's CEL rule by id,
 * a field's as `<field>#<rule>` (`cert#required`, `access_rules#cel.access_rules.no_mixing`).
 */
function violates(violation: { field: Parameters<typeof pathToString>[0]; ruleId: string }, rule: string): boolean {
  const at = pathToString(violation.field);
  if (!rule.includes('#')) return at === '' && violation.ruleId === rule;
  const [field, kind] = rule.split('#') as [string, string];
  return at.split(/[.[]/)[0] === field && violation.ruleId === kind.replace(/^cel\./, '');
}
