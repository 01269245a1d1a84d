/**
 * The port of Terraform 1.14's configuration writer (src/tfclient/genconfig.ts), which the round
 * trip of every type (test/props/generated-config.ts) uses to write what Terraform writes from a
 * GenerateResourceConfig answer:
 * - its rules, on a schema with one attribute of each kind, formatted by the installed Terraform's
 *   own formatter (`terraform fmt`, hclwrite.Format as genconfig's last step): the exact file;
 * - its literals mean the values they were written from: Terraform's HCL parser reads each back
 *   (through `terraform apply` of `locals` and `output -json`), escapes and odd keys included.
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaAttribute, SchemaBlock, SchemaNestedBlock } from '../../packages/framework/src/schema/block.js';
import { schemaAttribute } from '../support/schema-builders.js';
import {
  BOOL,
  NUMBER,
  STRING,
  listOf,
  mapOf,
  objectOf,
  setOf,
  type CtyType,
} from '../../packages/framework/src/schema/cty-type.js';
import { parseNumber } from '../../packages/framework/src/schema/number.js';
import type { ObjectValue, Value } from '../../packages/framework/src/schema/value.js';
import { generateResourceContents, resourceBlock, tokensForValue } from '../../src/tfclient/genconfig.js';
import { requireTerraform, Workspace } from '../acceptance/terraform.js';

const attribute = (
  name: string,
  type: CtyType,
  flags: Partial<Pick<SchemaAttribute, 'required' | 'optional' | 'computed' | 'sensitive' | 'deprecated'>>,
): SchemaAttribute => schemaAttribute(name, type, { description: name, ...flags });

const blockOf = (attributes: SchemaAttribute[], blockTypes: SchemaNestedBlock[] = []): SchemaBlock => ({
  attributes: Object.fromEntries(attributes.map((a) => [a.name, a])),
  blockTypes: Object.fromEntries(blockTypes.map((b) => [b.typeName, b])),
  description: '',
  descriptionKind: 'plain',
  deprecated: false,
});

const nested = (typeName: string, nesting: 'list' | 'set', block: SchemaBlock): SchemaNestedBlock => ({
  typeName,
  nesting,
  block,
  minItems: 0,
  maxItems: 0,
});

/** Runs `terraform fmt` on a file holding `text` and returns what it wrote. */
async function formatted(text: string): Promise<string> {
  const ws = new Workspace('', {});
  try {
    const file = join(ws.dir, 'config', 'generated.tf');
    writeFileSync(file, text);
    await ws.expect(['fmt', '-no-color']);
    return readFileSync(file, 'utf8');
  } finally {
    ws.dispose();
  }
}

describe("Terraform 1.14's configuration writer, ported (src/tfclient/genconfig.ts)", function () {
  this.timeout(60_000);
  before(function () {
    requireTerraform(this);
  });

  it('writes what genconfig writes: arguments in name order, then blocks; computed nulls and deprecated arguments left out; secrets as `null # sensitive` (a computed one too, when it has a value); JSON documents as jsonencode', async () => {
    const rule = blockOf([
      attribute('port', NUMBER, { required: true }),
      attribute('note', STRING, { optional: true }),
      attribute('rule_id', STRING, { computed: true }),
    ]);
    const schema = blockOf(
      [
        attribute('name', STRING, { required: true }),
        attribute('id', STRING, { optional: true, computed: true }),
        attribute('arn', STRING, { computed: true }),
        attribute('zone', STRING, { optional: true, computed: true }),
        attribute('password', STRING, { optional: true, sensitive: true }),
        attribute('token', STRING, { computed: true, sensitive: true }),
        attribute('old_name', STRING, { optional: true, deprecated: true }),
        attribute('description', STRING, { optional: true }),
        attribute('policy', STRING, { optional: true }),
        attribute('label', STRING, { optional: true }),
        attribute('enabled', BOOL, { optional: true }),
        attribute('tags', mapOf(STRING), { optional: true }),
        attribute('ports', setOf(NUMBER), { optional: true }),
      ],
      [nested('rule', 'list', rule), nested('window', 'list', blockOf([attribute('days', listOf(STRING), {})]))],
    );
    const config: ObjectValue = {
      name: 'web',
      id: null,
      arn: null,
      zone: 'eu-1',
      password: 'never written',
      token: 'never written either',
      old_name: 'left out',
      description: null,
      policy: '{"Statement":[{"Effect":"Allow"}],"Version":"2012-10-17"}',
      label: '42',
      enabled: false,
      tags: { env: 'prod', 'cost center': 'ops' },
      ports: [443, 80],
      rule: [
        { port: 22, note: null, rule_id: null },
        { port: 8080, note: 'web ${port}', rule_id: 'r-2' },
      ],
      window: null,
    };
    const text = resourceBlock('test_thing', 'web', generateResourceContents(schema, config));
    expect(await formatted(`${text}\n`)).to.equal(
      [
        'resource "test_thing" "web" {',
        '  description = null',
        '  enabled     = false',
        '  label       = "42"',
        '  name        = "web"',
        '  password    = null # sensitive',
        '  policy = jsonencode({',
        '    Statement = [{',
        '      Effect = "Allow"',
        '    }]',
        '    Version = "2012-10-17"',
        '  })',
        '  ports = [80, 443]',
        '  tags = {',
        '    "cost center" = "ops"',
        '    env           = "prod"',
        '  }',
        '  token = null # sensitive',
        '  zone  = "eu-1"',
        '  rule {',
        '    note = null',
        '    port = 22',
        '  }',
        '  rule {',
        '    note    = "web $${port}"',
        '    port    = 8080',
        '    rule_id = "r-2"',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes literals that Terraform reads back as the values they came from', async () => {
    const values: [string, CtyType, Value][] = [
      ['template', STRING, 'a${x}b%{y}c$ d% {e} $${f}'],
      ['escapes', STRING, 'quote " backslash \\ newline \n return \r tab \t'],
      ['unprintable', STRING, 'bell \u0007 nbsp \u00a0 line sep \u2028 zwj \u200d'],
      ['unicode', STRING, 'é ü 東京 😀'],
      ['empty', STRING, ''],
      ['big', NUMBER, parseNumber('18446744073709551617')],
      ['fraction', NUMBER, 0.1],
      ['small', NUMBER, parseNumber('1e-7')],
      ['negative', NUMBER, -1.5],
      ['keys', mapOf(STRING), { 'a b': '1', null: '2', '1x': '3', _under: '4', 'dash-ok': '5', é: '6' }],
      ['nested', objectOf({ list: listOf(NUMBER), flag: BOOL }), { list: [3, 1, 2], flag: true }],
      ['strings', setOf(STRING), ['b', 'a', 'B']],
    ];
    const locals = values.map(([name, type, v]) => `  ${name} = ${tokensForValue(type, v)}`).join('\n');
    const outputs = values.map(([name]) => `output "${name}" {\n  value = local.${name}\n}`).join('\n');
    const ws = new Workspace(`locals {\n${locals}\n}\n${outputs}\n`, {});
    try {
      await ws.expect(['apply', '-auto-approve', '-no-color']);
      const read = JSON.parse((await ws.expect(['output', '-json'])).stdout) as Record<string, { value: unknown }>;
      // Numbers as Terraform reads them exactly: JSON would round the big one.
      const expected: Record<string, unknown> = {
        template: 'a${x}b%{y}c$ d% {e} $${f}',
        escapes: 'quote " backslash \\ newline \n return \r tab \t',
        unprintable: 'bell \u0007 nbsp \u00a0 line sep \u2028 zwj \u200d',
        unicode: 'é ü 東京 😀',
        empty: '',
        big: Number('18446744073709551617'),
        fraction: 0.1,
        small: 1e-7,
        negative: -1.5,
        keys: { 'a b': '1', null: '2', '1x': '3', _under: '4', 'dash-ok': '5', é: '6' },
        nested: { list: [3, 1, 2], flag: true },
        strings: ['B', 'a', 'b'],
      };
      expect(Object.fromEntries(Object.entries(read).map(([k, o]) => [k, o.value]))).to.deep.equal(expected);
      const exact = await ws.expect(['output', '-raw', 'big']);
      expect(exact.stdout).to.equal('18446744073709551617');
    } finally {
      ws.dispose();
    }
  });
});
