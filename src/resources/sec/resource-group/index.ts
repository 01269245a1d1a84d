import { type OpContext, resource, type ResourceDef, resourceSchema, listedInOneCall } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import { idIdentity } from '../../shared/identity.js';
import type { ResourceGroup, ResourceGroupInput } from '../../../clients/sec/resource-groups.js';
import { textOrNull } from '../governance-values.js';
import { schema, type GroupModel, type Model, wired } from './schema.js';
import { fromQuery, toQuery, treeProblems } from './tree.js';

const topOf = (m: Model) => (m.group as unknown as GroupModel[])[0];

function toApi(m: Model): ResourceGroupInput {
  const top = topOf(m);
  return {
    name: m.name,
    resourceType: m.type,
    description: m.description ?? '',
    enabled: m.enabled !== false,
    query: toQuery(top!),
    declared: wired.declared(m),
  };
}

function fromApi(g: ResourceGroup, prior: Partial<Model>): Partial<Model> {
  return {
    id: g.resourceGroupGuid,
    name: g.name,
    type: g.resourceType,
    description: textOrNull(g.description, prior.description),
    enabled: g.enabled,
    group: [fromQuery(g.query)] as unknown as Model['group'],
    last_updated: g.updatedTime,
    updated_by: g.updatedBy,
    is_default: g.isDefaultBoolean,
    ...(wired.read(g) as Partial<Model>),
  };
}

/**
 * The resource groups made for the account: the platform's default groups are built in, never made
 * with this resource.
 */
async function groupsMadeForTheAccount(prior: Partial<Model>, ctx: OpContext<SecClient>): Promise<Partial<Model>[]> {
  return (await ctx.client.resourceGroups.list({ signal: ctx.signal }))
    .filter((g) => !g.isDefaultBoolean)
    .map((g) => fromApi(g, prior));
}

const resourceGroup = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_resource_group',
  schema,
  importIdDescription: 'the resource group GUID',
  importState: async (id) => ({ id }),
  identity: idIdentity('The resource group GUID.'),
  list: {
    schema: resourceSchema(
      {},
      {
        description:
          "Lists the resource groups made for the account (the platform's default groups are left out); " +
          'the API offers no filter.',
      },
    ),
    list: (_filters, ctx) => groupsMadeForTheAccount({}, ctx),
    displayName: (m) => m.name,
  },
  validate(config, diags) {
    diags.append(treeProblems(config.group?.[0], config.type));
  },
  create: async (plan, ctx) =>
    fromApi(await ctx.client.resourceGroups.create(toApi(plan), { signal: ctx.signal }), plan),
  // A resource group is known by its resource type and name.
  findCreated: {
    key: 'its resource type and name',
    uniqueKey: false,
    describe: (plan) => `the ${plan.type} resource group named ${JSON.stringify(plan.name)}`,
    list: (plan, ctx) => groupsMadeForTheAccount(plan, ctx),
    holdsKey: (plan, found) => found.name === plan.name && found.type === plan.type,
    importId: (found) => found.id ?? '',
  },
  read: async (prior, ctx) =>
    fromApi(await ctx.client.resourceGroups.get(prior.id ?? '', { signal: ctx.signal }), prior),
  readsByListing: {
    pages: listedInOneCall((ctx) => ctx.client.resourceGroups.list({ signal: ctx.signal })),
    idOf: (group) => group.resourceGroupGuid,
    read: fromApi,
  },
  update: async (plan, prior, ctx) =>
    fromApi(await ctx.client.resourceGroups.update(prior.id ?? '', toApi(plan), { signal: ctx.signal }), plan),
  delete: async (prior, ctx) => ctx.client.resourceGroups.delete(prior.id ?? '', { signal: ctx.signal }),
});

export const resourceGroupResources: ResourceDef<any, SecClient>[] = [resourceGroup];
