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
import '../../../src/resources/vdb/index.js';
import { apiRuleNames, checkedApiRules, checksOf } from '../../../src/resources/vdb/rules.js';
import { MESSAGE_RULES_CHECKED, NOT_CHECKED_AT_PLAN } from '../../../src/resources/vdb/rules-unchecked.js';
import { VDB_FIELD_ENUMS, VDB_FIELD_RULES, VDB_MESSAGE_RULES } from '../../../src/wire/vdb-field-rules.js';
import { vdbRulesRegistry } from '../../../src/wire/vdb-rules.js';
import { candidates, platformAccepts } from './rule-values.js';

const PACKAGE = 'vdb.cloud.';

describe('vdb: the plan checks the API field rules of proto/vdb', () => {
  // The contract's size in every suite run's log, so that a rule lost or gained shows.
  after(() => {
    const names = apiRuleNames();
    const checked = names.filter((name) => checkedApiRules().has(name)).length;
    const reasoned = names.filter(
      (name) => !checkedApiRules().has(name) && NOT_CHECKED_AT_PLAN.some(([pattern]) => pattern.test(name)),
    ).length;
    const messageRules = Object.values(VDB_MESSAGE_RULES).flatMap((rule) => (rule as { cel?: unknown[] }).cel ?? []);
    console.log(
      `vdb contract: ${names.length} rules on ${Object.keys(VDB_FIELD_RULES).length} fields; ${checked} checked ` +
        `at plan, ${reasoned} with a reason; ${messageRules.length} message rules, each with its check named`,
    );
  });

  it('every rule is checked by an attribute, or says why none needs to', () => {
    const checked = checkedApiRules();
    const unexplained = apiRuleNames().filter(
      (name) => !checked.has(name) && !NOT_CHECKED_AT_PLAN.some(([pattern]) => pattern.test(name)),
    );
    expect(unexplained, 'rules no attribute checks: link them (apiRules) or say why not').to.deep.equal([]);
    const stale = NOT_CHECKED_AT_PLAN.filter(([pattern]) =>
      apiRuleNames().every((name) => checked.has(name) || !pattern.test(name)),
    ).map(([pattern]) => pattern.source);
    expect(stale, 'reasons that no longer name an unchecked rule').to.deep.equal([]);
    expect(checked.size, 'rules checked at plan').to.be.above(100);
  });

  it('a bound or a form on a field an argument sets is derived, never said to be checked elsewhere', () => {
    // A hand-written check named in a reason would escape the agreement test below: such rules are apiRules'.
    const BOUND_OR_FORM =
      /#(u?int(32|64)|s?fixed(32|64)|sint(32|64)|double|float|string|bytes|enum|repeated\.(min|max)_items)$/;
    const claimedElsewhere = apiRuleNames()
      .filter((name) => !checkedApiRules().has(name) && BOUND_OR_FORM.test(name))
      .filter((name) => NOT_CHECKED_AT_PLAN.find(([pattern]) => pattern.test(name))?.[2] !== 'not configured');
    expect(claimedElsewhere, 'derive these with apiRules, or say no argument sets them').to.deep.equal([]);
    // The rule has something to hold: bounds and forms no argument sets.
    expect(
      apiRuleNames().filter((name) => !checkedApiRules().has(name) && BOUND_OR_FORM.test(name)).length,
    ).to.be.above(0);
  });

  it("every message rule has a named check in the provider, and the provider's page size is the API's", () => {
    const rules = Object.entries(VDB_MESSAGE_RULES).flatMap(([message, rule]) =>
      ((rule as { cel?: { id: string }[] }).cel ?? []).map((cel) => `${message}#${cel.id}`),
    );
    expect(rules.sort()).to.deep.equal(Object.keys(MESSAGE_RULES_CHECKED).sort());
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
