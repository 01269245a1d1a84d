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
 * - Claims: a rule the provider says it checks itself (`checkedBy`) is held to the contract as derived
 *   checks are: one that is another field's rule (`sameAs`) must be that rule; the checks an attribute
 *   declares for it (`checks`, found on the attribute) are tried on values at and around the rule, sent as
 *   the resource sends them; only a rule across fields may be left to the resource's code (`inCode`).
 *   Values an attribute refuses on purpose are counted and named by their reason.
 */
import { expect } from 'chai';
import sec from '../../../src/resources/sec/index.js';
import * as forms from '../../../src/schema/forms.js';
import type { Fields, Validator } from '../../../packages/framework/src/schema/define.js';
import {
  checkedSecRules,
  claimedSecRules,
  type RuleClaim,
  type SecRuleKind,
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

describe('sec: each rule the provider claims to check itself holds to the contract', () => {
  const tally = { sameAs: 0, probed: 0, values: 0, skipped: 0, inCode: 0, stricter: new Map<string, number>() };
  after(() => {
    const stricter = [...tally.stricter].map(([why, n]) => `${n} (${why})`).join(', ');
    process.stdout.write(
      `      sec claims: ${tally.sameAs} the same rule as a derived one, ${tally.probed} tried on their ` +
        `attribute's checks (${tally.values} values; refused on purpose: ${stricter || 'none'}), ` +
        `${tally.inCode} rules across fields in the resources' code\n`,
    );
  });
  const declared = declaredChecks();
  for (const [rule, claim] of [...claimedSecRules()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    it(rule, () => {
      const [field, kind] = rule.split('#') as [string, SecRuleKind];
      if ('inCode' in claim) {
        expect(kind, 'only a rule across fields is left to code: name the checks of the attribute').to.equal('check');
        tally.inCode++;
        return;
      }
      if ('sameAs' in claim) {
        expect(checkedSecRules().has(`${claim.sameAs}#${kind}`), `${claim.sameAs}#${kind} is checked`).to.equal(true);
        expect(ruleOf(contractField(field), kind), `the rule of ${claim.sameAs}`).to.deep.equal(
          ruleOf(contractField(claim.sameAs), kind),
        );
        tally.sameAs++;
        return;
      }
      const undeclared = claim.checks.filter((check) => !declared.has(check)).map((check) => check.description);
      expect(undeclared, 'checks no attribute of the provider declares').to.deep.equal([]);
      const disagreements = agreementOfClaim(field, claim, tally);
      expect(disagreements).to.deep.equal([]);
      tally.probed++;
    });
  }
});

/** The checks every attribute of sec's types declares, nested attributes' and blocks' too. */
function declaredChecks(): Set<Validator<unknown>> {
  const out = new Set<Validator<unknown>>();
  const walk = (fields: Fields) => {
    for (const def of Object.values(fields)) {
      if (def.kind === 'block') walk(def.fields);
      else {
        for (const check of def.options.validate ?? []) out.add(check as Validator<unknown>);
        if (def.nested) walk(def.nested.fields);
      }
    }
  };
  for (const type of [...sec.resources, ...sec.dataSources, ...(sec.ephemeralResources ?? [])])
    walk(type.schema.fields);
  return out;
}

/** What the contract says of one kind of rule of a field, for comparing two fields' rules. */
function ruleOf(spec: FieldSpec, kind: SecRuleKind): unknown {
  const s = spec as unknown as Record<string, unknown>;
  switch (kind) {
    case 'range':
      return { min: s.min, max: s.max };
    case 'oneOf':
      return [...((s.oneOf as string[]) ?? [])].sort();
    case 'minItems':
    case 'maxItems':
    case 'maxLength':
    case 'format':
    case 'pattern':
      return s[kind];
    default:
      return spec;
  }
}

/**
 * A claimed attribute's checks and the contract, on values at and around the rule in the attribute's own
 * terms (its checks' samples and refused forms, its range either side, the contract's candidates of the
 * same kind), each sent as the resource sends it: the disagreements, or none.
 */
function agreementOfClaim(
  field: string,
  claim: Extract<RuleClaim, { checks: unknown }>,
  tally: { values: number; skipped: number; stricter: Map<string, number> },
): string[] {
  const spec = contractField(field);
  const itemOfList = field.endsWith('[]');
  const own = claim.checks.flatMap((check) => [...samplesOf(check), ...(check.range ? aroundRange(check.range) : [])]);
  // Near misses of the attribute's own samples: a letter more, another case, nothing.
  const nearMisses = (value: unknown): unknown[] =>
    typeof value === 'string'
      ? [`${value}x`, value.toUpperCase(), value.toLowerCase(), '']
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? [value.map((item) => `${item}x`), value.map((item) => item.toUpperCase()), ['']]
        : [];
  own.push(...own.flatMap(nearMisses));
  const listValued = own.some(Array.isArray) || (!claim.sent && spec.kind === 'array');
  const contractSide = candidates(spec, claim.checks as Validator<unknown>[]);
  const values = [
    ...own,
    ...(listValued && itemOfList ? [[], ...contractSide.map((v) => [v])] : []),
    ...(listValued && !itemOfList ? [[], ...contractSide.filter(Array.isArray)] : []),
    ...(!listValued ? contractSide.filter((v) => own.length === 0 || typeof v === typeof own[0]) : []),
  ];
  const seen = new Set<string>();
  const disagreements: string[] = [];
  let accepted = 0;
  let refused = 0;
  for (const value of values) {
    const key = JSON.stringify(value);
    if (seen.has(key)) continue;
    seen.add(key);
    let plan: boolean;
    try {
      plan = claim.checks.every((check) => check.check(value as never) === undefined);
    } catch {
      tally.skipped++; // not a value of the attribute's type
      continue;
    }
    const sent = claim.sent ? claim.sent(value) : value;
    // An empty list says nothing of a rule on its items (its own count is another rule's).
    if (itemOfList && Array.isArray(sent) && sent.length === 0) continue;
    const platform =
      sent === undefined ||
      (itemOfList && Array.isArray(sent)
        ? sent.every((item) => contractAccepts(spec, item))
        : contractAccepts(spec, sent));
    tally.values++;
    if (plan) accepted++;
    else refused++;
    if (!plan && platform && claim.stricter) {
      tally.stricter.set(claim.stricter, (tally.stricter.get(claim.stricter) ?? 0) + 1);
      continue;
    }
    if (plan !== platform)
      disagreements.push(
        `${key}: the attribute ${plan ? 'accepts' : 'refuses'} it, the contract ${platform ? 'accepts' : 'refuses'} ` +
          `${sent === value ? 'it' : `what is sent, ${JSON.stringify(sent)}`}`,
      );
  }
  if (accepted === 0) disagreements.push('no value tried is accepted: the claim shows nothing');
  if (refused === 0) disagreements.push('no value tried is refused: the claim shows nothing');
  return disagreements;
}

const aroundRange = ([min, max]: readonly [number, number]): number[] =>
  [min - 1, min, min + 1, max - 1, max, max + 1].filter(Number.isSafeInteger);

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
  // White space alone too, which a rule that a text is not blank refuses.
  const out = ['a', 'ab', 'x y', 'Ops-1_a', '-', '!', 'é', ' a ', '.', '.a', 'a.', 'a.b', 'a..b', '_a', '1a', 'A', ' '];
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
  if (spec.kind === 'union') return goodItem(spec.options[0]!);
  return Object.fromEntries(
    Object.entries(spec.fields)
      .filter(([, field]) => !field.optional)
      .map(([key, field]) => [key, goodItem(field)]),
  );
}
