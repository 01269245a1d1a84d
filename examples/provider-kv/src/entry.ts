// The resource `kv_entry` and the data source of the same name.
import { attr, dataSource, resource, resourceSchema } from '@keel/provider-framework';
import type { Entry, Store } from './store.js';

const schema = resourceSchema(
  {
    id: attr.computedId("The entry's key, as `terraform import` takes it."),
    key: attr.string({ required: true, replace: true, description: 'The key, unique in the store.' }),
    value: attr.string({ required: true, description: 'What the entry holds.' }),
    version: attr.number({ computed: true, changesWith: ['value'], description: 'How many times it was written.' }),
  },
  { description: 'An entry of the key-value store.' },
);

const model = (entry: Entry) => ({ id: entry.key, key: entry.key, value: entry.value, version: entry.version });

export const entryResource = resource<typeof schema.fields, Store>({
  typeName: 'kv_entry',
  schema,
  importIdDescription: "the entry's key",
  importState: async (key) => ({ key }),
  identity: { attributes: { key: { description: "The entry's key.", forImport: 'required' } } },
  repeatableCreate: 'The store keeps keys unique: a repeated create is refused, it never makes a second entry.',
  async create(plan, ctx) {
    return model(ctx.client.create(plan.key, plan.value));
  },
  async read(prior, ctx) {
    const entry = ctx.client.get(prior.key);
    return entry === null ? null : model(entry);
  },
  async update(plan, _prior, ctx) {
    return model(ctx.client.update(plan.key, plan.value));
  },
  async delete(prior, ctx) {
    ctx.client.delete(prior.key);
  },
});

const lookup = resourceSchema(
  {
    key: attr.string({ required: true, description: 'The key to read.' }),
    value: attr.string({ computed: true, description: 'What the entry holds.' }),
    version: attr.number({ computed: true, description: 'How many times it was written.' }),
  },
  { description: 'Reads an entry of the key-value store.' },
);

export const entryDataSource = dataSource<typeof lookup.fields, Store>({
  typeName: 'kv_entry',
  schema: lookup,
  async read(config, ctx) {
    const entry = ctx.client.get(config.key);
    if (entry === null) throw new Error(`the store holds no entry ${JSON.stringify(config.key)}`);
    return { key: entry.key, value: entry.value, version: entry.version };
  },
});
