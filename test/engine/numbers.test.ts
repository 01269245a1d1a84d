/**
 * Numbers in diagnostics are shown as written, as cty holds them (arbitrary precision), never as the
 * float64 nearest them: for every number argument of every type of both providers, at any depth, a
 * 17-digit number and a fraction beyond a float64's precision are refused at validation with the
 * value exactly as configured ("12345678901234567" was once shown as 12345678901234568, and
 * 1.00000000000000001 was taken for the whole number 1).
 */
import { expect } from 'chai';
import { loadProviderDef } from '../../src/providers/describe.js';
import { validateFields } from '../../packages/framework/src/engine/plan/validate.js';
import { Diagnostics } from '../../packages/framework/src/engine/diagnostics/index.js';
import { parseNumber } from '../../packages/framework/src/schema/number.js';
import { validators, type Fields } from '../../packages/framework/src/schema/define.js';
import { Decimal, type ObjectValue, type Value } from '../../packages/framework/src/schema/value.js';

/** Every number argument, as the steps to it: block names, then the attribute. */
function numberArguments(fields: Fields, steps: string[] = []): string[][] {
  return Object.entries(fields).flatMap(([name, def]) => {
    if (def.kind === 'block') return numberArguments(def.fields, [...steps, name]);
    const o = def.options;
    return def.type.cty.kind === 'number' && (o.required || o.optional) && !o.platformAssigned
      ? [[...steps, name]]
      : [];
  });
}

/** A configuration holding `value` at `steps` (each block once), everything else unset. */
function configWith(fields: Fields, steps: string[], value: Value): ObjectValue {
  const [first, ...rest] = steps;
  const def = fields[first!]!;
  if (def.kind === 'attr') return { [first!]: value };
  const inner = configWith(def.fields, rest, value);
  const single = def.nesting === 'single' || def.nesting === 'group';
  return { [first!]: single ? inner : def.nesting === 'map' ? { k: inner } : [inner] };
}

describe('numbers in diagnostics: shown exactly, as cty holds them', () => {
  const written = ['12345678901234567', '1.00000000000000001', '-98765432109876543210'];

  it('the values are ones a float64 cannot hold', () => {
    for (const text of written) expect(parseNumber(text), text).to.be.instanceOf(Decimal);
  });

  for (const provider of ['sec', 'vdb'] as const) {
    it(`${provider}: every number argument refuses them at validation, naming each as written`, async () => {
      const def = await loadProviderDef(provider);
      const types = [...def.resources, ...def.dataSources, ...(def.ephemeralResources ?? [])];
      const schemas = [def.schema, ...types.map((r) => r.schema)];
      const wrong: string[] = [];
      let checked = 0;
      for (const schema of schemas) {
        const fields = schema.fields as Fields;
        for (const steps of numberArguments(fields)) {
          for (const text of written) {
            const diags = new Diagnostics();
            validateFields(fields, configWith(fields, steps, parseNumber(text)), diags);
            const leaf = `${steps[steps.length - 1]}"`;
            const errors = diags.items.filter((d) => d.severity === 'error' && d.summary.endsWith(leaf));
            const details = errors.map((d) => d.detail);
            checked++;
            if (!details.some((d) => d.includes(`got ${text}`))) {
              wrong.push(`${steps.join('.')} = ${text}: ${details.join(' | ') || 'accepted'}`);
            }
          }
        }
      }
      expect(wrong, wrong.join('\n')).to.deep.equal([]);
      expect(checked).to.be.greaterThan(0);
    });
  }

  it('a range and a list of allowed numbers judge the exact value', () => {
    const range = validators.intBetween(1, 10);
    for (const text of ['1.00000000000000001', '9.99999999999999999999']) {
      expect(range.check(parseNumber(text))).to.equal(`must be a whole number from 1 to 10, got ${text}`);
    }
    expect(range.check(1e21)).to.equal('must be a whole number from 1 to 10, got 1000000000000000000000');
    expect(range.check(10)).to.equal(undefined);
    const allowed = validators.oneOf(5, 10, 15);
    const nearly = '5.000000000000000001';
    expect(allowed.check(parseNumber(nearly))).to.equal(`must be one of 5, 10, 15, got ${nearly}`);
  });
});
