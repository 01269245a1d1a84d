/**
 * Every scalar rule kind protovalidate has derives the check protovalidate makes, also those no .proto
 * of the API uses yet: a test-only .proto annotates a field of each kind (bounds, reversed ranges, `in`,
 * `not_in`, `const`, 64-bit ends past 2^53), is built as `npm run build` builds proto/vdb, and the
 * derived checks (`checksOf`) are held to protovalidate on the values the agreement test makes.
 */
import { createFileRegistry } from '@bufbuild/protobuf';
import { createValidator } from '@bufbuild/protovalidate';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { checksOf } from '../../../src/resources/vdb/rules.js';
import { Decimal } from '../../../packages/framework/src/schema/value.js';
import { rootWithValidateImport, rulesDescriptorSet, rulesTable } from '../../../src/wire/vdb-rules.js';
import { candidates, platformAccepts } from './rule-values.js';

const FIELDS: Record<string, string> = {
  int32_range: 'int32 $ = {gte: -5, lt: 100}',
  int32_outside: 'int32 $ = {gt: 10, lt: 5}',
  int32_one: 'int32 $ = {gte: 5, lte: 5}',
  sint32_in: 'sint32 $ = {in: [-3, 0, 7]}',
  sfixed32_not_in: 'sfixed32 $ = {not_in: [0, 1]}',
  uint32_const: 'uint32 $ = {const: 42}',
  fixed32_outside_inclusive: 'fixed32 $ = {gte: 10, lte: 5}',
  int64_range: 'int64 $ = {gt: -9007199254740991, lte: 9007199254740991}',
  int64_type: 'int64 $ = {not_in: [0]}',
  sint64_outside: 'sint64 $ = {gte: 100, lt: -100}',
  sfixed64_const: 'sfixed64 $ = {const: -9007199254740991}',
  uint64_type: 'uint64 $ = {gte: 1}',
  uint64_in: 'uint64 $ = {in: [0, 9007199254740991]}',
  fixed64_lt: 'fixed64 $ = {lt: 1000}',
  double_range: 'double $ = {gt: 0.1, lte: 1e300}',
  double_finite: 'double $ = {finite: true, not_in: [0.5]}',
  double_outside: 'double $ = {gte: 1.5, lt: -1.5}',
  float_range: 'float $ = {gte: 0.1, lt: 3.5}',
  float_in: 'float $ = {in: [0.1, 2.5]}',
  float_finite: 'float $ = {finite: true}',
  bool_true: 'bool $ = {const: true}',
  bool_false: 'bool $ = {const: false}',
};

const MESSAGE = 'vdb.cloud.kinds.v1.Kinds';

function built() {
  const dir = mkdtempSync(join(tmpdir(), 'vdb-kinds-'));
  try {
    const fields = Object.entries(FIELDS).map(([name, rule], i) => {
      const [type] = rule.split(' ');
      return `  ${type} ${name} = ${i + 1} [(buf.validate.field).${rule.replace('$', '')}];`;
    });
    const source = [
      'syntax = "proto3";',
      'package vdb.cloud.kinds.v1;',
      'import "buf/validate/validate.proto";',
      'message Kinds {',
      ...fields,
      '}',
    ].join('\n');
    writeFileSync(join(dir, 'kinds.proto'), source);
    const resolveDefault = protobuf.Root.prototype.resolvePath;
    const root = rootWithValidateImport((origin, target) => resolveDefault.call(root, origin, target) ?? target);
    root.loadSync(join(dir, 'kinds.proto'), { keepCase: true });
    root.resolveAll();
    return { table: rulesTable(root), registry: createFileRegistry(rulesDescriptorSet(root)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('vdb: every scalar rule kind derives the check protovalidate makes', () => {
  const { table, registry } = built();
  const validator = createValidator({ registry });
  const message = registry.getMessage(MESSAGE)!;

  for (const name of Object.keys(FIELDS)) {
    it(name, () => {
      const full = `${MESSAGE}.${name}`;
      const rules = table.fields[full] as Record<string, Record<string, unknown>>;
      const field = message.fields.find((f) => f.name === name)!;
      const checks = checksOf(full.slice('vdb.cloud.'.length), rules);
      const verdicts = candidates(full, field, rules, table.enums).map((value) => {
        const plan = checks.every((check) => check.check(value as never) === undefined);
        return { value, plan, platform: platformAccepts(validator, message, field, full, value, table.enums) };
      });
      const disagreeing = verdicts.filter((v) => v.plan !== v.platform);
      expect(disagreeing.map((v) => `${String(v.value)}: plan ${v.plan}, platform ${v.platform}`)).to.deep.equal([]);
      expect(verdicts.some((v) => v.plan)).to.equal(true, 'a value the rule accepts');
      expect(verdicts.some((v) => !v.plan)).to.equal(true, 'a value the rule refuses');
    });
  }

  it('a 64-bit kind is exact past 2^53 (a Terraform number there comes as a Decimal)', () => {
    const [range] = checksOf('k.M.f', { uint64: { gte: '1' } });
    expect(range!.check(new Decimal('18446744073709551615') as never)).to.equal(undefined);
    expect(range!.check((2 ** 64) as never)).to.match(/from 1 to 18446744073709551615/);
    const [signed] = checksOf('k.M.f', { int64: { lte: '9007199254740991' } });
    expect(signed!.check(new Decimal('9007199254740993') as never)).to.match(/must be a whole number/);
    expect(signed!.check(new Decimal('-9223372036854775808') as never)).to.equal(undefined);
    expect(signed!.check(new Decimal('-9223372036854775809') as never)).to.match(/must be a whole number/);
  });

  it('a kind or a key it cannot derive fails at load, naming the field', () => {
    expect(() => checksOf('k.M.f', { bytes: { max_len: 3 } })).to.throw(/k\.M\.f: no plan check .* bytes rule/);
    expect(() => checksOf('k.M.f', { uint64: { example: [3] } })).to.throw(/k\.M\.f: .* uint64\.example/);
    expect(() => checksOf('k.M.f', { double: { const: 1, lte: 2, example: [1] } })).to.throw(/double\.example/);
    expect(() => checksOf('k.M.f', { bool: { example: [true] } })).to.throw(/bool\.example/);
  });
});
