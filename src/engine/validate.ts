/**
 * Static validation of a configuration against the declarations: validators and the
 * "not configurable" rule, each problem reported at its attribute path. Unknown values are skipped
 * (they are checked again once known, at apply time).
 */
import type { Fields } from '../schema/define.js';
import { type AttributePath, attrStep, indexStep } from '../schema/path.js';
import { Unknown, type ObjectValue, type Value } from '../schema/value.js';
import { isWhollyKnown } from '../schema/value-ops.js';
import { valueToPlain } from '../schema/model.js';
import type { Diagnostics } from './diagnostics.js';

export function validateFields(fields: Fields, value: ObjectValue | null, diags: Diagnostics, path: AttributePath = []): void {
  if (value === null) return;
  for (const [name, def] of Object.entries(fields)) {
    const v = value[name] ?? null;
    const here = [...path, attrStep(name)];
    if (v === null || v instanceof Unknown) continue;
    if (def.kind === 'block') {
      if (def.nesting === 'single' || def.nesting === 'group') validateFields(def.fields, v as ObjectValue, diags, here);
      else if (Array.isArray(v)) {
        // Set elements cannot be addressed; their problems are reported on the block.
        v.forEach((e, i) => validateFields(def.fields, e as ObjectValue, diags, def.nesting === 'list' ? [...here, indexStep(i)] : here));
      }
      continue;
    }
    const o = def.options;
    if (o.notConfigurable) {
      diags.error(`Invalid attribute "${name}"`, o.notConfigurable, here);
      continue;
    }
    if (!o.validate || !isWhollyKnown(def.type.cty, v)) continue;
    const plain = valueToPlain(v as Value);
    for (const validator of o.validate) {
      const problem = validator.check(plain);
      if (problem) diags.error(`Invalid value for "${name}"`, `The value ${problem}.`, here);
    }
  }
}
