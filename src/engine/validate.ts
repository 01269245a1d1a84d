/**
 * Static validation of a configuration against the declarations: validators and the
 * "not configurable" rule, each problem reported at its attribute path. Unknown values are skipped
 * (they are checked again once known, at apply time).
 */
import type { Fields } from '../schema/define.js';
import { type AttributePath, attrStep, indexStep } from '../schema/path.js';
import { Unknown, type ObjectValue, type Value } from '../schema/value.js';
import { hasNullElement, isWhollyKnown } from '../schema/value-ops.js';
import { valueToPlain } from '../schema/model.js';
import type { Diagnostics } from './diagnostics.js';

/**
 * `setPath`, when given, is the path of the enclosing set block: set elements cannot be addressed
 * (protocol.md §2.2), so everything inside one is reported on the set itself.
 *
 * Returns false when a collection holds a null element (`["a", null]`): Terraform allows that, the
 * models do not, so it is refused here and the caller must not build a model from the value.
 */
export function validateFields(fields: Fields, value: ObjectValue | null, diags: Diagnostics, path: AttributePath = [], setPath?: AttributePath): boolean {
  if (value === null) return true;
  let modelSafe = true;
  for (const [name, def] of Object.entries(fields)) {
    const v = value[name] ?? null;
    const here = setPath ?? [...path, attrStep(name)];
    if (v === null || v instanceof Unknown) continue;
    if (def.kind === 'block') {
      if (def.nesting === 'single' || def.nesting === 'group') modelSafe = validateFields(def.fields, v as ObjectValue, diags, here, setPath) && modelSafe;
      else if (Array.isArray(v)) {
        v.forEach((e, i) => {
          const ok = def.nesting === 'list' ? validateFields(def.fields, e as ObjectValue, diags, [...here, indexStep(i)], setPath) : validateFields(def.fields, e as ObjectValue, diags, here, here);
          modelSafe = ok && modelSafe;
        });
      }
      continue;
    }
    const o = def.options;
    if (o.notConfigurable) {
      diags.error(`Invalid attribute "${name}"`, o.notConfigurable, here);
      continue;
    }
    if (hasNullElement(def.type.cty, v)) {
      diags.error(`Invalid value for "${name}"`, 'The value must not contain null elements; remove them or use a placeholder value.', here);
      modelSafe = false;
      continue;
    }
    if (!o.validate || !isWhollyKnown(def.type.cty, v)) continue;
    const plain = valueToPlain(v as Value);
    for (const validator of o.validate) {
      const problem = validator.check(plain);
      if (problem) diags.error(`Invalid value for "${name}"`, `The value ${o.sensitive ? withoutSecrets(problem, plain) : problem}.`, here);
    }
  }
  return modelSafe;
}

const HIDDEN = '(sensitive value)';

/**
 * A validator's message with every text of a sensitive value replaced: validators usually quote the
 * value they refuse, and a secret must never reach a diagnostic.
 */
export function withoutSecrets(problem: string, value: unknown): string {
  const texts: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string' && v !== '') texts.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(value);
  // Longest first, quoted before bare, so no part of a longer text survives a shorter one's
  // replacement. A text of a few characters is replaced only where quoted: bare, it would match
  // ordinary words of the message, and it is no secret anyway.
  let out = problem;
  for (const text of texts.sort((a, b) => b.length - a.length)) {
    out = out.replaceAll(JSON.stringify(text), HIDDEN);
    if (text.length >= 4) out = out.replaceAll(text, HIDDEN);
  }
  return out;
}
