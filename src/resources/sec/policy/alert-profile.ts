import {
  attr,
  attrStep,
  block,
  type ModelOf,
  resource,
  resourceSchema,
  type Validator,
  validators,
} from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import type { AlertProfile, AlertTemplate } from '../../../clients/sec/alert-profiles.js';
import { checkAlertProfileTemplates } from './catalogue.js';
import { checkedBy, secItems, secRules } from '../rules.js';
import { wireFields } from '../wired-fields.js';

/** Names of the platform's own profiles start with this; the platform refuses it for new ones. */
const RESERVED_PREFIX = 'SEC_';

const notReserved: Validator<string> = {
  description: `must not start with \`${RESERVED_PREFIX}\` (reserved for built-in profiles)`,
  check: (value) =>
    value.startsWith(RESERVED_PREFIX)
      ? `must not start with "${RESERVED_PREFIX}", which is reserved for the platform's built-in ` +
        `profiles, got ${JSON.stringify(value)}`
      : undefined,
};

// An update sends the templates alone, bounded as a create's: the same block checks both.
checkedBy('AlertProfiles:update.alerts', 'minItems', { sameAs: 'AlertProfiles.alerts' });

/**
 * Attributes that are one field of the body as it is, by the field's path (../wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped below.
 */
const wired = wireFields(
  'AlertProfiles',
  {
    id: attr.sdkId('The alert profile id, the same as `name`.', ['name']),
    name: attr.string({
      required: true,
      replace: true,
      validate: [...secRules('AlertProfiles.alertProfileId', { samples: ['TF_PROFILE', 'my-profile'] }), notReserved],
      description:
        'The alert profile name, which is also its id; policies refer to it as `<name>` or to one of its ' +
        'templates as `<name>.<template>`. Names starting with `SEC_` are reserved for built-in ' +
        'profiles. The platform cannot rename a profile, so a change creates a new one.',
    }),
    extends: attr.string({
      required: true,
      replace: true,
      refersTo: 'an alert profile',
      validate: [validators.nonEmpty()],
      description:
        'The alert profile this one extends, usually a built-in profile such as ' +
        '`SEC_CFG_CLOUD_A_DEFAULT_PROFILE`. Its fields are the ones templates may use. The platform ' +
        'cannot change it afterwards, so a change creates a new profile.',
    }),
    alert: block.set(
      {
        name: attr.string({
          required: true,
          validate: [validators.nonEmpty()],
          description: 'The name that policies use to refer to the template.',
        }),
        event_name: attr.string({ required: true, description: 'The name of the resulting alert.' }),
        description: attr.string({
          required: true,
          description: 'The summary of the resulting alert; may use the profile fields as `{{FIELD}}`.',
        }),
        subject: attr.string({
          required: true,
          description: 'A high-level observation of the resulting alert; may use the profile fields as `{{FIELD}}`.',
        }),
      },
      {
        ...secItems('AlertProfiles.alerts'),
        description: 'An alert template: how query results that a policy reports become an alert.',
      },
    ),
    fields: attr.stringSet({
      computed: true,
      description: 'The fields the profile maps from query results, usable in templates as `{{FIELD}}`.',
    }),
  },
  {},
  { update: 'AlertProfiles:update' },
);

const schema = resourceSchema(wired.fields, {
  description:
    'An alert profile: alert templates, on top of an existing profile, that turn the results of ' +
    'policies into alerts.',
});
type Model = ModelOf<typeof schema.fields>;

const toTemplates = (m: Model): AlertTemplate[] =>
  m.alert.map((a) => ({ name: a.name, eventName: a.event_name, description: a.description, subject: a.subject }));

const fromApi = (p: AlertProfile): Partial<Model> => ({
  id: p.alertProfileId,
  name: p.alertProfileId,
  extends: p.extends,
  alert: p.alerts.map((a) => ({
    name: a.name,
    event_name: a.eventName,
    description: a.description,
    subject: a.subject,
  })),
  fields: [...p.fields],
  ...(wired.read(p) as Partial<Model>),
});

export default resource<typeof schema.fields, SecClient>({
  typeName: 'sec_alert_profile',
  schema,
  importIdDescription: 'the alert profile name',
  importState: async (name) => ({ id: name, name }),
  identity: {
    attributes: { name: { description: 'The alert profile name, which is its id.', forImport: 'required' } },
  },
  // The platform's built-in profiles cannot be managed (their names are reserved), so they are not listed.
  list: {
    schema: resourceSchema(
      {},
      {
        description:
          `Lists the custom alert profiles (built-in ones, named \`${RESERVED_PREFIX}…\`, ` +
          `cannot be managed); the API offers no filter.`,
      },
    ),
    async list(_filters, ctx) {
      return (await ctx.client.alertProfiles.list({ signal: ctx.signal }))
        .filter((p) => !p.alertProfileId.startsWith(RESERVED_PREFIX))
        .map(fromApi);
    },
    displayName: (m) => m.name,
  },
  checkAgainstCatalogue: checkAlertProfileTemplates,
  validate(config, diags) {
    const seen = new Set<string>();
    for (const a of config.alert ?? []) {
      if (a.name == null) continue;
      if (seen.has(a.name))
        diags.error(
          'Duplicate alert template',
          `The template name "${a.name}" is used by more than one \`alert\` block; template names must ` +
            `be unique within a profile.`,
          [attrStep('alert')],
        );
      seen.add(a.name);
    }
  },
  async create(plan, ctx) {
    const created = await ctx.client.alertProfiles.create(
      { alertProfileId: plan.name, extends: plan.extends, alerts: toTemplates(plan), declared: wired.declared(plan) },
      { signal: ctx.signal },
    );
    return fromApi(created);
  },
  // The name is the profile's id, unique in the account.
  findCreated: {
    key: 'its name',
    uniqueKey: true,
    describe: (plan) => `the alert profile named ${JSON.stringify(plan.name)}`,
    list: async (_plan, ctx) => (await ctx.client.alertProfiles.list({ signal: ctx.signal })).map(fromApi),
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.name ?? '',
  },
  async read(prior, ctx) {
    return fromApi(await ctx.client.alertProfiles.get(prior.name, { signal: ctx.signal }));
  },
  async update(plan, prior, ctx) {
    // Only the templates can change in place; name and extends force a replacement.
    const input = { alerts: toTemplates(plan), declared: wired.declared(plan) };
    return fromApi(await ctx.client.alertProfiles.update(prior.name, input, { signal: ctx.signal }));
  },
  async delete(prior, ctx) {
    await ctx.client.alertProfiles.delete(prior.name, { signal: ctx.signal });
  },
});
