import {
  attr,
  attrStep,
  block,
  DiagnosticError,
  listResource,
  type ModelOf,
  resource,
  resourceSchema,
  validators,
} from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import { checkExceptionAgainstPolicy } from './catalogue.js';
import { checkedBy, secItems, secRules } from '../rules.js';
import { wireFields } from '../wired-fields.js';
import { notBlankEntries, sameTrimmedList } from '../governance-values.js';
import type {
  ConstraintValue,
  PolicyException,
  PolicyExceptionConstraint,
  PolicyExceptionInput,
} from '../../../clients/sec/policy-exceptions.js';

const CONSTRAINT_PATH = [attrStep('constraint')];

checkedBy('Exceptions.constraints[]', 'check', { inCode: 'validate: a constraint with no values' });

const declared = {
  id: attr.computedId('The exception id the platform assigned.'),
  policy_id: attr.string({
    required: true,
    replace: true,
    refersTo: 'a policy',
    validate: [validators.nonEmpty()],
    description:
      'The id of the policy the exception belongs to. An exception cannot move to another policy, so a ' +
      'change creates a new exception.',
  }),
  description: attr.string({ required: true, description: 'Why the exception exists.' }),
  constraint: block.set(
    {
      field_key: attr.string({
        required: true,
        refersTo: "a constraint of the policy's exception configuration",
        validate: [validators.nonEmpty(), ...secRules('Exceptions.constraints[].fieldKey')],
        description:
          "A constraint the policy's exception configuration defines, for example `accountIds` or `resourceTags`.",
      }),
      field_values: attr.stringList({
        optional: true,
        // Sent trimmed: white space alone would be sent as "".
        validate: [notBlankEntries],
        equal: sameTrimmedList,
        unordered: true,
        description: 'Plain values of the constraint, for example account ids. Surrounding whitespace is ignored.',
      }),
      field_values_map: block.set(
        {
          key: attr.string({
            required: true,
            validate: [validators.nonEmpty()],
            description: 'The key, for example a tag name.',
          }),
          value: attr.stringList({
            required: true,
            validate: [validators.nonEmpty(), notBlankEntries],
            equal: sameTrimmedList,
            unordered: true,
            description: 'The values the key may have. Surrounding whitespace is ignored.',
          }),
        },
        { description: 'A key with the values it may have, for key/value constraints such as `resourceTags`.' },
      ),
      field_value_map: block.set(
        {
          key: attr.string({
            required: true,
            validate: [validators.nonEmpty()],
            description: 'The key, for example a tag name.',
          }),
          value: attr.string({
            required: true,
            validate: [validators.nonEmpty()],
            description: 'The one value the key may have.',
          }),
        },
        {
          description: 'A key with one value.',
          deprecated:
            'Use `field_values_map`, which takes a list of values per key: ' +
            '`field_values_map { key = "..." value = ["..."] }`.',
          // A key with one value is the same constraint as that key with a list of that value.
          readAs: {
            field: 'field_values_map',
            convert: (m: { key: string; value: string }) => ({ key: m.key, value: [m.value] }),
          },
        },
      ),
    },
    {
      ...secItems('Exceptions.constraints'),
      description: 'What the exception exempts: the policy does not report results that match every constraint.',
    },
  ),
  updated_time: attr.string({ computed: true, volatile: true, description: 'When the exception was last changed.' }),
  updated_by: attr.string({ computed: true, volatile: true, description: 'Who last changed the exception.' }),
};

/**
 * The exception's fields that are the body's as they are (../wired-fields.ts): a field the contract gains is
 * its attribute and its entry here. The constraints, whose values take one of two shapes, are mapped by hand.
 */
const wired = wireFields('Exceptions', declared, { description: 'description' });
const schema = resourceSchema(wired.fields, {
  description: 'An exception of a policy: results matching its constraints are not reported.',
});
type Model = ModelOf<typeof schema.fields>;
type Constraint = Model['constraint'][number];

const mapEntries = (c: Constraint): ConstraintValue[] => [
  ...c.field_values_map.map((m) => ({ key: m.key, value: m.value.map((v) => v.trim()) })),
  ...c.field_value_map.map((m) => ({ key: m.key, value: m.value.trim() })),
];

function toApi(m: Model): PolicyExceptionInput {
  const constraints = m.constraint.map((c): PolicyExceptionConstraint => {
    const maps = mapEntries(c);
    const plain = (c.field_values ?? []).map((v) => v.trim());
    return { fieldKey: c.field_key, fieldValues: maps.length > 0 ? maps : plain };
  });
  return { description: m.description, constraints, declared: wired.declared(m) };
}

function fromApi(e: PolicyException): Partial<Model> {
  return {
    ...wired.read(e),
    id: e.exceptionId,
    constraint: e.constraints.map((c) => {
      const plain = c.fieldValues.filter((v): v is string => typeof v === 'string');
      const objects = c.fieldValues.filter((v): v is Exclude<ConstraintValue, string> => typeof v !== 'string');
      return {
        field_key: c.fieldKey,
        field_values: plain.length > 0 ? plain : null,
        field_values_map: objects.flatMap((o) =>
          Array.isArray(o.value) ? [{ key: o.key, value: [...(o.value as readonly string[])] }] : [],
        ),
        field_value_map: objects.flatMap((o) => (typeof o.value === 'string' ? [{ key: o.key, value: o.value }] : [])),
      };
    }),
    updated_time: e.lastUpdateTime,
    updated_by: e.lastUpdateUser,
  };
}

/** The API lists the exceptions of one policy. */
const filters = resourceSchema(
  {
    policy_id: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'The policy whose exceptions are listed.',
    }),
  },
  { description: 'Lists the exceptions of one policy (the API lists them per policy).' },
);

export default resource<typeof schema.fields, SecClient>({
  typeName: 'sec_policy_exception',
  schema,
  checkAgainstCatalogue: checkExceptionAgainstPolicy,
  importIdDescription: '`<policy_id>:<exception_id>`',
  identity: {
    attributes: {
      policy_id: { description: 'The id of the policy the exception belongs to.', forImport: 'required' },
      id: { description: 'The exception id.', forImport: 'required' },
    },
  },
  list: listResource<typeof schema.fields, typeof filters.fields, SecClient>({
    schema: filters,
    async list(f, ctx) {
      return (await ctx.client.policyExceptions.list(f.policy_id, { signal: ctx.signal })).map((e) => ({
        ...fromApi(e),
        policy_id: f.policy_id,
      }));
    },
    displayName: (m) => m.description,
  }),
  async importState(id) {
    const parts = id.split(':');
    if (parts.length !== 2 || parts.some((p) => p.trim() === '')) {
      throw new DiagnosticError(
        'Invalid import ID',
        `Expected "<policy_id>:<exception_id>", for example "acme-abcd-1234:0f8e…", got ${JSON.stringify(id)}.`,
      );
    }
    return { policy_id: parts[0]!.trim(), id: parts[1]!.trim() };
  },
  validate(config, diags) {
    const keys = new Set<string>();
    for (const c of config.constraint ?? []) {
      if (c.field_key != null) {
        if (keys.has(c.field_key))
          diags.error(
            'Duplicate constraint',
            `The constraint "${c.field_key}" appears in more than one \`constraint\` block; use one block per key.`,
            CONSTRAINT_PATH,
          );
        keys.add(c.field_key);
      }
      // Judged only once the values are known (a dynamic block's for_each may not be yet).
      if (c.field_values === undefined || c.field_values_map === undefined || c.field_value_map === undefined) continue;
      const hasPlain = (c.field_values ?? []).length > 0;
      const hasMaps = c.field_values_map.length > 0 || c.field_value_map.length > 0;
      if (hasPlain && hasMaps) {
        diags.error(
          'Conflicting constraint values',
          `The constraint "${c.field_key ?? '?'}" sets both \`field_values\` and key/value maps; a ` +
            `constraint holds either plain values or key/value pairs.`,
          CONSTRAINT_PATH,
        );
      } else if (!hasPlain && !hasMaps) {
        diags.error(
          'Invalid constraint',
          `The constraint "${c.field_key ?? '?'}" has no values: set \`field_values\` or \`field_values_map\`.`,
          CONSTRAINT_PATH,
        );
      }
    }
  },
  async create(plan, ctx) {
    return fromApi(await ctx.client.policyExceptions.create(plan.policy_id, toApi(plan), { signal: ctx.signal }));
  },
  // An exception has no name: it is known by its policy and description (its constraints must match the plan too).
  findCreated: {
    key: 'its policy and description',
    uniqueKey: false,
    describe: (plan) => `the exception of policy ${plan.policy_id} described ${JSON.stringify(plan.description)}`,
    list: async (plan, ctx) =>
      (await ctx.client.policyExceptions.list(plan.policy_id, { signal: ctx.signal })).map((e) => ({
        ...fromApi(e),
        policy_id: plan.policy_id,
      })),
    scope: (plan) => plan.policy_id,
    holdsKey: (plan, found) => found.description === plan.description,
    importId: (found) => `${found.policy_id}:${found.id}`,
  },
  async read(prior, ctx) {
    return fromApi(await ctx.client.policyExceptions.get(prior.policy_id, prior.id ?? '', { signal: ctx.signal }));
  },
  async update(plan, prior, ctx) {
    return fromApi(
      await ctx.client.policyExceptions.update(prior.policy_id, prior.id ?? '', toApi(plan), { signal: ctx.signal }),
    );
  },
  async delete(prior, ctx) {
    await ctx.client.policyExceptions.delete(prior.policy_id, prior.id ?? '', { signal: ctx.signal });
  },
});
