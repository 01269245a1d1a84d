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
      if (problem) diags.error(`Invalid value for "${name}"`, `The value ${problem}.`, here);
    }
  }
  return modelSafe;
}
