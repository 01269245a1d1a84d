/**
 * What the Pulumi model (test/pulumi-model) builds for both providers is a valid Pulumi package
 * schema: it validates against Pulumi's package metaschema, and its parameterization makes an SDK run
 * our executable through the dynamic bridge. (The real bridge's schema is compared with it in
 * test/acceptance/pulumi.test.ts.)
 *
 * The metaschema is vendored, unmodified, in fixtures/pulumi-package-metaschema.json: the file
 * pkg/codegen/schema/pulumi.json of pulumi/pulumi at tag v3.259.0 (commit 0ac56e87, 2026-08-19),
 * Apache-2.0 (fixtures/pulumi-LICENSE.txt). It is read with the small validator in
 * test/support/json-schema.ts, which refuses keywords it does not implement.
 */
import { expect } from 'chai';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeProvider } from '../pulumi-model/description.js';
import { buildPulumiSchema, type PulumiPackageSchema } from '../pulumi-model/schema.js';
import { JsonSchemaValidator } from '../support/json-schema.js';

const ROOT = process.cwd();
const METASCHEMA = JSON.parse(
  readFileSync(join(ROOT, 'test', 'golden', 'fixtures', 'pulumi-package-metaschema.json'), 'utf8'),
);

async function builtSchema(provider: string): Promise<PulumiPackageSchema> {
  const localProviderPath = join(ROOT, 'bin', `terraform-provider-${provider}`);
  return buildPulumiSchema(await describeProvider(provider), { localProviderPath });
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('Pulumi schema: the model of both providers against the Pulumi package metaschema', function () {
  this.timeout(60_000);
  const validator = new JsonSchemaValidator(METASCHEMA);
  const printed = new Map<string, PulumiPackageSchema>();

  before(async () => {
    for (const provider of ['sec', 'vdb']) printed.set(provider, await builtSchema(provider));
  });

  for (const provider of ['sec', 'vdb']) {
    it(`${provider}: validates`, () => {
      const errors = validator.validate(printed.get(provider));
      expect(errors, errors.slice(0, 20).join('\n')).to.deep.equal([]);
    });

    it(`${provider}: lists the required configuration under config.defaults`, () => {
      const config = printed.get(provider)!.config;
      expect(config).to.not.have.property('required');
      // sec's settings may all come from the environment or the profile file; vdb needs its key.
      if (provider === 'vdb') expect(config.defaults).to.deep.equal(['apiKey']);
      else expect(config).to.not.have.property('defaults');
    });

    it(`${provider}: carries the dynamic bridge's parameterization for our executable`, () => {
      const { parameterization } = printed.get(provider)!;
      expect(parameterization!.baseProvider).to.deep.equal({ name: 'terraform-provider', version: '1.1.3' });
      const value = JSON.parse(Buffer.from(parameterization!.parameter, 'base64').toString('utf8'));
      const path = join(ROOT, 'bin', `terraform-provider-${provider}`);
      expect(value).to.deep.equal({ local: { path } });
      accessSync(path, constants.X_OK);
      expect(Object.keys(printed.get(provider)!).at(-1), 'last, as the bridge writes it').to.equal('parameterization');
    });
  }

  it('notices what the metaschema forbids (the validation is not vacuous)', () => {
    const good = printed.get('sec')!;
    const problems = (mutate: (s: any) => void) => {
      const broken = clone(good);
      mutate(broken);
      return validator.validate(broken).join('\n');
    };
    // The old mistake: required configuration under `config.required`.
    expect(problems((s) => (s.config.required = ['account']))).to.include('/config/required: property not allowed');
    expect(problems((s) => delete s.parameterization.baseProvider.version)).to.include(
      '/parameterization/baseProvider: lacks required property "version"',
    );
    expect(problems((s) => (s.version = 'two'))).to.include('/version: "two" does not match');
    expect(
      problems(
        (s) =>
          (s.resources['sec:index/alertChannelEmail'] = s.resources['sec:index/alertChannelEmail:AlertChannelEmail']),
      ),
    ).to.include('/resources/sec:index~1alertChannelEmail (name)');
    // A property type that is none of primitive, array, map, reference or union.
    expect(
      problems(
        (s) => (s.resources['sec:index/alertChannelEmail:AlertChannelEmail'].inputProperties.name = { type: 'text' }),
      ),
    ).to.include(
      '/resources/sec:index~1alertChannelEmail:AlertChannelEmail/inputProperties/name: matches none of oneOf',
    );
    expect(
      problems((s) => (s.resources['sec:index/alertChannelEmail:AlertChannelEmail'].requiredInputs = 'all')),
    ).to.include('/resources/sec:index~1alertChannelEmail:AlertChannelEmail/requiredInputs: is string, must be array');
  });
});

describe('JSON schema validator (test/support/json-schema.ts)', () => {
  it('applies each implemented keyword', () => {
    const v = new JsonSchemaValidator({
      $defs: { name: { type: 'string', pattern: '^[a-z]+$', minLength: 2 } },
      type: 'object',
      properties: {
        name: { $ref: '#/$defs/name' },
        kind: { enum: ['a', 'b'] },
        fixed: { const: 1 },
        list: { type: 'array', items: { type: 'integer' }, minItems: 1 },
        either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        some: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
        both: { allOf: [{ type: 'number' }, { type: 'integer' }] },
      },
      required: ['name'],
      additionalProperties: false,
      propertyNames: { pattern: '^[a-z]+$' },
    });
    expect(v.validate({ name: 'ab', kind: 'a', fixed: 1, list: [1], either: 'x', some: null, both: 3 })).to.deep.equal(
      [],
    );
    expect(
      v.validate({ name: 'a1', kind: 'c', fixed: 2, list: [], either: true, some: 1, both: 1.5, Extra: 0 }),
    ).to.deep.equal([
      '/name: "a1" does not match ^[a-z]+$',
      '/kind: "c" is not one of ["a","b"]',
      '/fixed: must be 1',
      '/list: fewer than 1 items',
      '/either: matches none of oneOf (0: /either: is boolean, must be string; 1: /either: is boolean, must be number)',
      '/some: matches none of anyOf (0: /some: is integer, must be boolean; 1: /some: is integer, must be null)',
      '/both: is number, must be integer',
      '/Extra: property not allowed',
      '/Extra (name): "Extra" does not match ^[a-z]+$',
    ]);
    expect(v.validate({})).to.deep.equal(['/: lacks required property "name"']);
    expect(new JsonSchemaValidator({ oneOf: [{ type: 'number' }, { type: 'integer' }] }).validate(1)).to.deep.equal([
      '/: matches 2 branches of oneOf, must match exactly one',
    ]);
  });

  it('refuses a schema with a keyword it does not implement', () => {
    expect(() => new JsonSchemaValidator({ type: 'object', unevaluatedProperties: false }).validate({})).to.throw(
      /unevaluatedProperties/,
    );
    expect(() => new JsonSchemaValidator({ $ref: 'other.json#/x' }).validate({})).to.throw(/inside the document/);
  });
});
