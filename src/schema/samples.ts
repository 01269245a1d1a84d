/**
 * Valid values of an argument, made from its declaration: the samples its validators name (`oneOf`
 * its allowed values, `intBetween` its bounds, `url` a URL of each scheme, a format its examples), or,
 * where none names any, a plain value of its type; every candidate must pass all its validators. The
 * property tests build random valid configurations from these (test/props).
 *
 * An argument that names another object (`refersTo`) has none: only real objects' ids are valid.
 */
import type { AttrDef, CtyType } from '@keel/provider-framework';

const TEXTS = ['tf-sample-a', 'tf-sample-b'];

/** Plain values of `type` for an argument whose validators name none. */
function plainValuesOf(type: CtyType): unknown[] {
  switch (type.kind) {
    case 'string':
      return TEXTS;
    case 'bool':
      return [true, false];
    case 'list':
    case 'set': {
      const elements = plainValuesOf(type.element);
      return elements.length === 0 ? [] : [elements.slice(0, 1), elements];
    }
    case 'map': {
      const elements = plainValuesOf(type.element);
      return elements.length === 0 ? [] : [{ 'tf-key': elements[0] }];
    }
    default:
      // Numbers always come from their range (an invariant requires one); no argument is an object.
      return [];
  }
}

/** Valid plain values of an argument (empty for one that names another object, or that nothing fits). */
export function samplesOf(def: AttrDef<unknown>): unknown[] {
  if (def.options.refersTo !== undefined) return [];
  const validators = def.options.validate ?? [];
  const named = validators.flatMap((v) => v.samples ?? v.range ?? []);
  const candidates = named.length > 0 ? named : plainValuesOf(def.type.cty);
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = JSON.stringify(c);
    if (seen.has(key)) return false;
    seen.add(key);
    return validators.every((v) => v.check(c) === undefined);
  });
}
