// The provider `acme/kv`: its settings, how they make a client, and what it serves.
import { attr, FunctionArgumentError, provider, providerFunction, providerSchema, STRING } from '@keel/provider-framework';
import { entryDataSource, entryResource } from './entry.js';
import { Store } from './store.js';

const settings = providerSchema(
  { path: attr.string({ required: true, description: 'The JSON file that holds the store.' }) },
  { description: 'A key-value store kept in a JSON file.' },
);

/** `provider::kv::key(parts...)`: a key made of parts, as the store's keys are written. */
const key = providerFunction({
  name: 'key',
  summary: 'A key from its parts, joined by "/"',
  description: 'Joins the parts with `/`; a part may not be empty or hold a `/`.',
  parameters: [],
  variadic: { name: 'parts', type: STRING, description: 'The parts, outermost first.' },
  returns: STRING,
  examples: [
    { args: ['team', 'db'], result: 'team/db' },
    { args: ['team', ''], error: 'a part may not be empty', argument: 1 },
  ],
  // The variadic arguments come as one list after the others (here none).
  call([parts]) {
    const list = parts as string[];
    list.forEach((part, at) => {
      if (part === '') throw new FunctionArgumentError(at, 'a part may not be empty');
      if (part.includes('/')) throw new FunctionArgumentError(at, 'a part may not hold "/"');
    });
    return list.join('/');
  },
});

export const kv = provider<typeof settings.fields, Store>({
  namespace: 'acme',
  name: 'kv',
  version: '0.1.0',
  schema: settings,
  async configure(config) {
    return new Store(config.path);
  },
  resources: [entryResource],
  dataSources: [entryDataSource],
  functions: [key],
});
