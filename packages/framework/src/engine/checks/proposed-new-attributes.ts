/**
 * The attributes' half of Terraform core's objchange.ProposedNew (internal/plans/objchange/objchange.go
 * proposedNewAttributes and proposedNewNestedType): a computed attribute left unset in the configuration
 * keeps its prior value, any other takes the configuration's, and a configured nested attribute
 * (`nested_type`) is merged inner attribute by inner attribute, its objects correlated by index (list),
 * key (map) or, for a set, with the prior element whose non-computed values are the configuration's.
 */
import { type SchemaAttribute, type SchemaObject, nestedAttributeType } from '../../schema/block.js';
import type { CtyType } from '../../schema/cty-type.js';
import { setEntry } from '../../schema/entries.js';
import { type ObjectValue, type Value, UNKNOWN, isUnknown } from '../../schema/value.js';
import { normalizeSet, valueEquals } from '../../schema/value-ops.js';
import { attrOf, elementsOf, entriesOf, isKnownNonNull } from './util.js';

type Attributes = Readonly<Record<string, SchemaAttribute>>;

/** objchange.proposedNewAttributes. `prior` may be null or unknown (read through as null or unknown). */
export function proposedNewAttributes(attrs: Attributes, prior: Value, config: Value): ObjectValue {
  const out: ObjectValue = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const priorV = attrOf(prior, name);
    const configV = attrOf(config, name);
    // Computed attributes left unset in config keep their prior value (null on create); a configured
    // nested attribute is merged inside; every other attribute takes the config value, even when null.
    // Required-ness plays no part.
    if (attr.computed && configV === null) out[name] = priorV;
    else if (attr.nestedType !== undefined && !isUnknown(configV))
      out[name] = proposedNewNestedType(attr.nestedType, priorV, configV);
    else out[name] = configV;
  }
  return out;
}

/** objchange.proposedNewNestedType: a null or empty configuration stays as it is. */
function proposedNewNestedType(schema: SchemaObject, prior: Value, config: Value): Value {
  if (config === null) return config;
  switch (schema.nesting) {
    case 'single':
      return proposedNewAttributes(schema.attributes, prior, config);
    case 'list': {
      const configElems = elementsOf(config);
      if (configElems.length === 0) return config;
      const priorElems = elementsOf(prior);
      return configElems.map((configEV, i) => {
        // A config element without a prior partner is taken as is.
        if (!isUnknown(prior) && i >= priorElems.length) return configEV;
        return proposedNewAttributes(schema.attributes, isUnknown(prior) ? UNKNOWN : priorElems[i]!, configEV);
      });
    }
    case 'map': {
      const configEntries = entriesOf(config);
      if (Object.keys(configEntries).length === 0) return config;
      const priorEntries = isKnownNonNull(prior) ? entriesOf(prior) : {};
      const out: ObjectValue = {};
      for (const [key, configEV] of Object.entries(configEntries)) {
        // Go's map case: an unknown prior gives no partner either.
        const partner = isKnownNonNull(prior) && Object.hasOwn(priorEntries, key);
        setEntry(out, key, partner ? proposedNewAttributes(schema.attributes, priorEntries[key]!, configEV) : configEV);
      }
      return out;
    }
    case 'set':
      return proposedNewNestedSet(schema, prior, config);
  }
}

/**
 * NestingSet: each config element is paired with the first unused prior element whose values, with
 * every computed attribute made null (setElementComputedAsNull), equal it; unpaired ones are taken as
 * they are. Walked in go-cty's set order (normalizeSet), as proposed-new.ts walks set blocks.
 */
function proposedNewNestedSet(schema: SchemaObject, prior: Value, config: Value): Value {
  const configElems = elementsOf(config);
  if (configElems.length === 0) return config;
  const elemType = elementTypeOf(schema);
  const priorElems = isKnownNonNull(prior) ? normalizeSet(elemType, elementsOf(prior)) : [];
  const compared = priorElems.map((e) => computedAsNull(schema.attributes, e));
  const used = priorElems.map(() => false);
  const merged = normalizeSet(elemType, configElems).map((configEV) => {
    const match = compared.findIndex((c, i) => !used[i] && valueEquals(elemType, c, configEV));
    if (match < 0) return configEV;
    used[match] = true;
    return proposedNewAttributes(schema.attributes, priorElems[match]!, configEV);
  });
  return normalizeSet(elemType, merged);
}

/** objchange.setElementComputedAsNull: an object with its computed attributes, at any depth, null. */
function computedAsNull(attrs: Attributes, v: Value): Value {
  if (!isKnownNonNull(v)) return v;
  const out: ObjectValue = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const inner = attrOf(v, name);
    if (attr.computed && inner !== null && !isUnknown(inner)) out[name] = null;
    else if (attr.nestedType !== undefined) out[name] = nestedComputedAsNull(attr.nestedType, inner);
    else out[name] = inner;
  }
  return out;
}

function nestedComputedAsNull(schema: SchemaObject, v: Value): Value {
  if (!isKnownNonNull(v)) return v;
  switch (schema.nesting) {
    case 'single':
      return computedAsNull(schema.attributes, v);
    case 'list':
      return elementsOf(v).map((e) => computedAsNull(schema.attributes, e));
    case 'set':
      return normalizeSet(
        elementTypeOf(schema),
        elementsOf(v).map((e) => computedAsNull(schema.attributes, e)),
      );
    case 'map': {
      const out: ObjectValue = {};
      for (const [k, e] of Object.entries(entriesOf(v))) setEntry(out, k, computedAsNull(schema.attributes, e));
      return out;
    }
  }
}

const elementTypes = new WeakMap<SchemaObject, CtyType>();

/** The type of one object of a nested attribute. */
function elementTypeOf(schema: SchemaObject): CtyType {
  let type = elementTypes.get(schema);
  if (type === undefined) {
    const attrs: Record<string, CtyType> = {};
    for (const [name, a] of Object.entries(schema.attributes)) attrs[name] = a.type;
    type = nestedAttributeType(attrs, 'single');
    elementTypes.set(schema, type);
  }
  return type;
}
