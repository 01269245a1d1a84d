/**
 * What the plan accepts, the sec platform accepts: the plan's checks of the API's field rules are
 * derived from sec's contract (src/resources/sec/rules.ts, src/wire/sec-contract), and this file holds
 * them to it two ways, as test/resources/vdb/api-rules.test.ts does vdb's to its .proto files.
 *
 * - Coverage: every rule of the contract is checked by some attribute, or named below with the reason
 *   no attribute needs to (the provider sets that field itself, or writes the value from others). A rule
 *   added to the contract fails here until it is one or the other.
 * - Agreement: for every field an attribute derives checks for, values at and around its bounds and
 *   forms are judged by the derived checks and by the contract itself (what the emulator answers with);
 *   they must agree, except where the plan's form is stricter on purpose (a URL with a host).
 */
import { expect } from 'chai';
import '../../../src/resources/sec/index.js';
import * as forms from '../../../src/schema/forms.js';
import type { Validator } from '../../../src/schema/define.js';
import {
  checkedSecRules,
  derivedChecks,
  derivedFields,
  rulesOfSpec,
  secRuleNames,
} from '../../../src/resources/sec/rules.js';
import { SEC_RULES_NOT_CHECKED_AT_PLAN } from '../../../src/resources/sec/rules-unchecked.js';
import {
  contractField,
  contractFields,
  type FieldSpec,
  SEC_CONTRACT,
  validate,
} from '../../../src/wire/sec-contract/index.js';

const NOT_CHECKED_AT_PLAN = SEC_RULES_NOT_CHECKED_AT_PLAN;

describe('sec: the plan checks the field rules of the contract', () => {
  after(() => {
    const names = secRuleNames();
    const checked = names.filter((name) => checkedSecRules().has(name)).length;
    const fields = contractFields().filter(({ spec }) => spec.kind !== 'object').length;
    process.stdout.write(
      `      sec contract: ${names.length} field rules on ${fields} fields of ${Object.keys(SEC_CONTRACT).length} ` +
        `bodies; ${checked} checked at plan, ${names.length - checked} with a reason none needs to\n`,
    );
  });

  it('every rule is checked by an attribute, or says why none needs to', () => {
    const checked = checkedSecRules();
    const names = secRuleNames();
    const unexplained = names.filter(
      (name) => !checked.has(name) && !NOT_CHECKED_AT_PLAN.some(([pattern]) => pattern.test(name)),
    );
    expect(unexplained, 'rules no attribute checks: link them (secRules) or say why not').to.deep.equal([]);
    const stale = NOT_CHECKED_AT_PLAN.filter(([pattern]) =>
      names.every((name) => checked.has(name) || !pattern.test(name)),
    ).map(([pattern]) => pattern.source);
    expect(stale, 'reasons that no longer name an unchecked rule').to.deep.equal([]);
  });

  describe('each derived check agrees with the contract on the bounds and forms of its rule', () => {
    const tally = { fields: 0, values: 0, agreeing: 0, stricter: 0 };
    after(() => {
      process.stdout.write(
        `      sec: ${tally.fields} fields, ${tally.values} values tried, ${tally.agreeing} verdicts agreeing, ` +
          `${tally.stricter} where the plan's form is stricter on purpose\n`,
      );
    });
    for (const field of derivedFields().sort()) {
      it(field, () => {
        const spec = contractField(field);
        const { checks, options } = derivedChecks(field)!;
        const disagreements: string[] = [];
        let accepted = 0;
        let refused = 0;
        for (const value of candidates(spec, checks)) {
          const plan = checks.every((check) => check.check(value as never) === undefined);
          // A resource that trims an e-mail sends it trimmed.
          const sent = options.trimmed ? trimmed(value) : value;
          const platform = contractAccepts(spec, sent);
          if (plan) accepted++;
          else refused++;
          tally.values++;
          if (plan === platform) tally.agreeing++;
          const stricterOnPurpose = !plan && platform && stricterForm(checks, value);
          if (stricterOnPurpose) tally.stricter++;
          if (plan !== platform && !stricterOnPurpose)
            disagreements.push(
              `${JSON.stringify(value)}: plan ${plan ? 'accepts' : 'refuses'}, contract ${platform ? 'accepts' : 'refuses'}`,
            );
        }
        tally.fields++;
        expect(disagreements).to.deep.equal([]);
        expect(accepted, 'values the rule accepts').to.be.above(0);
        if (rulesOfSpec(spec).length > 0 || spec.kind === 'array')
          expect(refused, 'values the rule refuses').to.be.above(0);
      });
    }
  });
});

function contractAccepts(spec: FieldSpec, value: unknown): boolean {
  try {
    validate(spec, value, 'value');
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether every check refusing `value` is a form the plan holds stricter than the platform on purpose:
 * a URL must name a host; a name people see in the console is one line of visible text (forms.name).
 */
function stricterForm(checks: readonly Validator<unknown>[], value: unknown): boolean {
  const refusing = checks.filter((check) => check.check(value as never) !== undefined);
  return refusing.every((check) => {
    // A list's `each` carries its items' form.
    const form = (check as { form?: string }).form;
    return form === 'name' || (form === 'url' && /URL with a host/.test(check.check(value as never)!));
  });
}

const trimmed = (value: unknown): unknown =>
  typeof value === 'string' ? value.trim() : Array.isArray(value) ? value.map(trimmed) : value;

/** Values right and wrong for the rules of `spec`: its bounds and either side, its forms' own samples. */
function candidates(spec: FieldSpec, checks: readonly Validator<unknown>[]): unknown[] {
  switch (spec.kind) {
    case 'integer': {
      const min = spec.min ?? Number.MIN_SAFE_INTEGER;
      const max = spec.max ?? Number.MAX_SAFE_INTEGER;
      return [min - 1, min, min + 1, max - 1, max, max + 1, Math.trunc((min + max) / 2)].filter(Number.isSafeInteger);
    }
    case 'string':
      return [...new Set([...texts(spec), ...checks.flatMap(samplesOf)])].filter((v) => typeof v === 'string');
    case 'array': {
      const good = goodItem(spec.items);
      // The platform's limit for any list is the provider's limits' (ProviderDef), not the field's checks.
      const min = spec.minItems ?? 0;
      const max = spec.maxItems;
      const lengths = [...new Set([min - 1, min, min + 1, 2, ...(max === undefined ? [] : [max, max + 1])])].filter(
        (n) => n >= 0,
      );
      const lists: unknown[] = lengths.map((n) => Array.from({ length: n }, () => good));
      for (const item of candidates(spec.items, [])) lists.push([item]);
      return lists;
    }
    default:
      return [];
  }
}

function texts(spec: FieldSpec & { kind: 'string' }): string[] {
  // Texts of many shapes, so that a pattern meets some it refuses (a dot first or last, a space, a slash).
  const out = ['a', 'ab', 'x y', 'Ops-1_a', '-', '!', 'é', ' a ', '.', '.a', 'a.', 'a.b', 'a..b', '_a', '1a', 'A'];
  out.push('a/b', 'a:b', 'a@b', '$x', 'a'.repeat(64), 'a'.repeat(65), '0', '-1', '12', 'ab_cd-EF.gh');
  if (spec.maxLength !== undefined) {
    const max = spec.maxLength;
    out.push('a'.repeat(max), 'a'.repeat(max + 1), 'é'.repeat(max), '😀'.repeat(max + 1));
  }
  if (spec.oneOf) out.push(...spec.oneOf, `${spec.oneOf[0]}x`, spec.oneOf[0]!.toLowerCase());
  if (spec.format === 'email' || spec.format === undefined)
    out.push(...(forms.email().samples ?? []), ...forms.email().counterexamples);
  if (spec.format === 'url' || spec.format === 'https-url') {
    const url = forms.url('http', 'https');
    out.push(...(url.samples ?? []), ...url.counterexamples);
  }
  if (spec.format === 'pem-private-key') {
    const pem = forms.pemPrivateKey;
    out.push(...(pem.samples ?? []), ...pem.counterexamples);
  }
  return out;
}

function samplesOf(check: Validator<unknown>): unknown[] {
  const refused = (check as { counterexamples?: unknown[] }).counterexamples ?? [];
  return [...(check.samples ?? []), ...refused];
}

/** An item the contract takes, for the lists whose counts are judged. */
function goodItem(spec: FieldSpec): unknown {
  if (spec.kind === 'integer') return spec.min ?? 1;
  if (spec.kind === 'boolean') return true;
  if (spec.kind === 'flag') return 1;
  if (spec.kind === 'string') {
    if (spec.oneOf) return spec.oneOf[0];
    if (spec.format === 'email') return 'oncall@example.com';
    if (spec.format === 'url' || spec.format === 'https-url') return 'https://hooks.example.com/x';
    return 'a';
  }
  if (spec.kind === 'array') return [];
  return Object.fromEntries(
    Object.entries(spec.fields)
      .filter(([, field]) => !field.optional)
      .map(([key, field]) => [key, goodItem(field)]),
  );
}
