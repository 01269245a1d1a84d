/**
 * Golden vectors from go-cty 1.12 (/work/shared/conformance/cty-msgpack-vectors.json): every vector is
 * encoded and compared byte for byte, decoded and compared semantically and structurally, and — where the
 * value is wholly known — checked against its JSON form.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CtyType, typeFromJSON } from '../../src/schema/cty-type.js';
import { DynamicValue, UNKNOWN, type Value } from '../../src/schema/value.js';
import { parseNumber } from '../../src/schema/number.js';
import { decodeMsgpack, encodeMsgpack } from '../../src/schema/msgpack.js';
import { decodeJSON, encodeJSON, JSONNumberText, JSONObjectNode, parseJSONText, type JSONNode } from '../../src/schema/json.js';
import { isWhollyKnown, normalizeSet, valueEquals } from '../../src/schema/value-ops.js';

const VECTORS_PATH = resolve(process.cwd(), '../shared/conformance/cty-msgpack-vectors.json');

interface Vector {
  name: string;
  type: CtyType;
  value: Value;
  msgpack: string;
  /** The `json` member re-serialized with its numbers exactly as written, if the vector has one. */
  jsonText?: string;
}

/** Reads the vectors with our precision-preserving parser: `json` numbers such as 1e100 must stay exact. */
function loadVectors(): Vector[] {
  const root = parseJSONText(readFileSync(VECTORS_PATH, 'utf8'));
  if (!Array.isArray(root)) throw new Error('vectors file must hold an array');
  return root.map((node) => {
    const entry = membersOf(node);
    const type = typeFromJSON(plain(entry.get('type')!));
    const json = entry.get('json');
    return {
      name: plain(entry.get('name')!) as string,
      type,
      value: neutralToValue(type, plain(entry.get('value')!) as Neutral),
      msgpack: plain(entry.get('msgpack')!) as string,
      ...(json !== undefined ? { jsonText: jsonTextOf(json) } : {}),
    };
  });
}

function membersOf(node: JSONNode): Map<string, JSONNode> {
  if (!(node instanceof JSONObjectNode)) throw new Error('vector must be an object');
  return new Map(node.members.map(([k, v]) => [k, v]));
}

function plain(node: JSONNode): unknown {
  if (node instanceof JSONNumberText) return Number(node.text);
  if (Array.isArray(node)) return node.map(plain);
  if (node instanceof JSONObjectNode) return Object.fromEntries(node.members.map(([k, v]) => [k, plain(v)]));
  return node;
}

function jsonTextOf(node: JSONNode): string {
  if (node instanceof JSONNumberText) return node.text;
  if (Array.isArray(node)) return `[${node.map(jsonTextOf).join(',')}]`;
  if (node instanceof JSONObjectNode) return `{${node.members.map(([k, v]) => `${JSON.stringify(k)}:${jsonTextOf(v)}`).join(',')}}`;
  return JSON.stringify(node);
}

type Neutral = { [kind: string]: unknown };

/** The vectors' language-neutral value description → our Value representation. */
function neutralToValue(type: CtyType, d: Neutral): Value {
  if (d.null === true) return null;
  if (d.unknown === true) return UNKNOWN;
  if ('dynamic' in d) {
    const concrete = typeFromJSON(d.dynamic);
    return new DynamicValue(concrete, neutralToValue(concrete, d.value as Neutral));
  }
  switch (type.kind) {
    case 'string':
      return d.string as string;
    case 'number':
      return parseNumber(d.number as string);
    case 'bool':
      return d.bool as boolean;
    case 'list':
      return (d.list as Neutral[]).map((e) => neutralToValue(type.element, e));
    case 'set':
      return (d.set as Neutral[]).map((e) => neutralToValue(type.element, e));
    case 'tuple':
      return (d.tuple as Neutral[]).map((e, i) => neutralToValue(type.elements[i]!, e));
    case 'map':
      return Object.fromEntries(Object.entries(d.map as Record<string, Neutral>).map(([k, e]) => [k, neutralToValue(type.element, e)]));
    case 'object':
      return Object.fromEntries(Object.entries(d.object as Record<string, Neutral>).map(([k, e]) => [k, neutralToValue(type.attributes[k]!, e)]));
    case 'dynamic':
      throw new Error('a value at a dynamic position must name its type');
  }
}

/** Puts every set in canonical order so that structural (deep) comparison is meaningful. */
function canonical(type: CtyType, v: Value): Value {
  if (v === null || !(Array.isArray(v) || (typeof v === 'object' && v.constructor === Object) || v instanceof DynamicValue)) return v;
  switch (type.kind) {
    case 'dynamic':
      return v instanceof DynamicValue ? new DynamicValue(v.type, canonical(v.type, v.value)) : v;
    case 'list':
      return (v as Value[]).map((e) => canonical(type.element, e));
    case 'set':
      return normalizeSet(type.element, (v as Value[]).map((e) => canonical(type.element, e)));
    case 'tuple':
      return (v as Value[]).map((e, i) => canonical(type.elements[i]!, e));
    case 'map':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, canonical(type.element, e as Value)]));
    case 'object':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, canonical(type.attributes[k]!, e as Value)]));
    default:
      return v;
  }
}

/** Every set reversed (recursively): the encoder must still produce the canonical bytes. */
function reverseSets(type: CtyType, v: Value): Value {
  if (v === null || !(Array.isArray(v) || (typeof v === 'object' && v.constructor === Object) || v instanceof DynamicValue)) return v;
  switch (type.kind) {
    case 'dynamic':
      return v instanceof DynamicValue ? new DynamicValue(v.type, reverseSets(v.type, v.value)) : v;
    case 'list':
      return (v as Value[]).map((e) => reverseSets(type.element, e));
    case 'set':
      return (v as Value[]).map((e) => reverseSets(type.element, e)).reverse();
    case 'tuple':
      return (v as Value[]).map((e, i) => reverseSets(type.elements[i]!, e));
    case 'map':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, reverseSets(type.element, e as Value)]));
    case 'object':
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, reverseSets(type.attributes[k]!, e as Value)]));
    default:
      return v;
  }
}

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const containsSet = (t: CtyType): boolean =>
  t.kind === 'set' ||
  ((t.kind === 'list' || t.kind === 'map') && containsSet(t.element)) ||
  (t.kind === 'tuple' && t.elements.some(containsSet)) ||
  (t.kind === 'object' && Object.values(t.attributes).some(containsSet));

describe('conformance vectors (go-cty msgpack and json)', function () {
  if (!existsSync(VECTORS_PATH)) {
    it('vectors file is present', function () {
      console.warn(`\n!!! CONFORMANCE VECTORS NOT FOUND at ${VECTORS_PATH}: the golden-vector suite is SKIPPED !!!\n`);
      this.skip();
    });
    return;
  }
  const vectors = loadVectors();

  it('loads a non-trivial number of vectors', function () {
    expect(vectors.length).to.be.greaterThan(50);
  });

  for (const v of vectors) {
    describe(v.name, function () {
      it('encodes to the exact golden bytes', function () {
        expect(hexOf(encodeMsgpack(v.type, v.value))).to.equal(v.msgpack);
      });

      if (containsSet(v.type)) {
        it('encodes sets in canonical order whatever order they are given in', function () {
          expect(hexOf(encodeMsgpack(v.type, reverseSets(v.type, v.value)))).to.equal(v.msgpack);
        });
      }

      it('decodes the golden bytes to the value', function () {
        const decoded = decodeMsgpack(v.type, Buffer.from(v.msgpack, 'hex'));
        expect(valueEquals(v.type, decoded, v.value), 'valueEquals').to.equal(true);
        expect(canonical(v.type, decoded)).to.deep.equal(canonical(v.type, v.value));
      });

      if (v.jsonText !== undefined && isWhollyKnown(v.type, v.value)) {
        it('decodes the JSON form to the value', function () {
          const decoded = decodeJSON(v.type, v.jsonText!);
          expect(valueEquals(v.type, decoded, v.value), 'valueEquals').to.equal(true);
          expect(canonical(v.type, decoded)).to.deep.equal(canonical(v.type, v.value));
        });

        it('round-trips through encodeJSON', function () {
          const text = encodeJSON(v.type, v.value);
          expect(valueEquals(v.type, decodeJSON(v.type, text), v.value)).to.equal(true);
          expect(valueEquals(v.type, decodeJSON(v.type, text), decodeJSON(v.type, v.jsonText!))).to.equal(true);
        });
      }
    });
  }
});
