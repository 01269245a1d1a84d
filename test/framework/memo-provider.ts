/**
 * A small provider for the harness's tests (harness.test.ts), defined as an author would with the
 * package's entry point: notes kept in memory by key, with a nested block, a computed revision, an
 * identity, a data source and a function.
 */
import {
  ApiError,
  attr,
  block,
  dataSource,
  FunctionArgumentError,
  provider,
  providerFunction,
  providerSchema,
  resource,
  resourceSchema,
  STRING,
  validators,
} from '../../packages/framework/src/index.js';

export interface Note {
  readonly key: string;
  readonly text: string;
  readonly priority: number;
  readonly color: string | null;
  readonly revision: number;
  readonly created: string;
  readonly links: readonly { readonly url: string; readonly weight: number }[];
}

/** The platform: notes by key, and a clock that stamps when each was made. */
export class NoteStore {
  readonly notes = new Map<string, Note>();
  private ticks = 0;
  /** The error the next create or update fails with, before it changes anything. */
  failNext: Error | undefined;

  create(note: Omit<Note, 'revision' | 'created'>): Note {
    this.failing();
    if (this.notes.has(note.key))
      throw new ApiError(`the key ${note.key} is taken`, { code: 'conflict', operation: 'create note' });
    const made = { ...note, revision: 1, created: `t${++this.ticks}` };
    this.notes.set(made.key, made);
    return made;
  }

  update(note: Omit<Note, 'revision' | 'created'>): Note {
    this.failing();
    const prior = this.notes.get(note.key);
    if (!prior) throw new ApiError('no such note', { code: 'not_found', operation: 'update note' });
    const next = { ...prior, ...note, revision: prior.revision + 1 };
    this.notes.set(note.key, next);
    return next;
  }

  private failing(): void {
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
  }
}

const noteSchema = resourceSchema(
  {
    id: attr.computedId("The note's key."),
    key: attr.string({
      required: true,
      replace: true,
      description: 'The key, unique in the store.',
      validate: [validators.matches(/^[a-z][a-z0-9-]*$/, 'a lower-case slug', ['a'])],
    }),
    text: attr.string({ required: true, description: 'What the note says.' }),
    priority: attr.number({
      optional: true,
      default: 1,
      description: 'How urgent it is.',
      validate: [validators.intBetween(1, 5)],
    }),
    color: attr.string({ optional: true, description: 'A color.', deprecated: 'Use `priority` instead.' }),
    revision: attr.number({
      computed: true,
      changesWith: ['text', 'priority'],
      description: 'How many times it was written.',
    }),
    created_at: attr.string({ computed: true, description: 'When the store made it.' }),
    link: block.list(
      {
        url: attr.string({ required: true, description: 'Where it points.' }),
        weight: attr.number({
          optional: true,
          default: 1,
          description: 'How much it counts.',
          validate: [validators.intBetween(1, 10)],
        }),
      },
      { description: 'A link from the note.' },
    ),
  },
  { description: 'A note.' },
);

const modelOf = (note: Note) => ({
  id: note.key,
  key: note.key,
  text: note.text,
  priority: note.priority,
  color: note.color,
  revision: note.revision,
  created_at: note.created,
  link: note.links.map((l) => ({ url: l.url, weight: l.weight })),
});

type Plan = {
  key: string;
  text: string;
  priority: number | null;
  color: string | null;
  link: { url: string; weight: number | null }[];
};
const noteOf = (plan: Plan) => ({
  key: plan.key,
  text: plan.text,
  priority: plan.priority ?? 1,
  color: plan.color,
  links: plan.link.map((l) => ({ url: l.url, weight: l.weight ?? 1 })),
});

const note = resource<typeof noteSchema.fields, NoteStore>({
  typeName: 'memo_note',
  schema: noteSchema,
  importIdDescription: "the note's key",
  importState: async (key, ctx) => (ctx.client.notes.has(key) ? { key } : null),
  identity: { attributes: { key: { description: "The note's key.", forImport: 'required' } } },
  repeatableCreate: 'The store keeps keys unique.',
  async create(plan, ctx) {
    return modelOf(ctx.client.create(noteOf(plan)));
  },
  async read(prior, ctx) {
    const found = ctx.client.notes.get(prior.key);
    return found ? modelOf(found) : null;
  },
  async update(plan, _prior, ctx) {
    return modelOf(ctx.client.update(noteOf(plan)));
  },
  async delete(prior, ctx) {
    ctx.client.notes.delete(prior.key);
  },
});

const lookupSchema = resourceSchema(
  {
    key: attr.string({ required: true, description: 'The key to read.' }),
    text: attr.string({ computed: true, description: 'What the note says.' }),
    revision: attr.number({ computed: true, description: 'How many times it was written.' }),
  },
  { description: 'Reads a note.' },
);

const lookup = dataSource<typeof lookupSchema.fields, NoteStore>({
  typeName: 'memo_note',
  schema: lookupSchema,
  async read(config, ctx) {
    const found = ctx.client.notes.get(config.key);
    if (!found) throw new ApiError(`no note ${config.key}`, { code: 'not_found', operation: 'get note' });
    return { key: found.key, text: found.text, revision: found.revision };
  },
});

/** `provider::memo::slug(parts...)`: the parts joined by "-". */
const slug = providerFunction({
  name: 'slug',
  summary: 'A key from its parts',
  description: 'Joins the parts with `-`; a part may not be empty.',
  parameters: [],
  variadic: { name: 'parts', type: STRING, description: 'The parts.' },
  returns: STRING,
  examples: [
    { args: ['team', 'db'], result: 'team-db' },
    { args: ['team', ''], error: 'a part may not be empty', argument: 1 },
  ],
  call([parts]) {
    const list = parts as string[];
    list.forEach((part, at) => {
      if (part === '') throw new FunctionArgumentError(at, 'a part may not be empty');
    });
    return list.join('-');
  },
});

const settings = providerSchema(
  {
    region: attr.string({
      required: true,
      description: 'Where the store is.',
      validate: [validators.oneOf('eu', 'us')],
    }),
  },
  { description: 'Notes kept in memory.' },
);

/** The provider over `store`. */
export const memoProvider = (store: NoteStore) =>
  provider<typeof settings.fields, NoteStore>({
    namespace: 'acme',
    name: 'memo',
    version: '0.1.0',
    schema: settings,
    async configure() {
      return store;
    },
    resources: [note],
    dataSources: [lookup],
    functions: [slug],
  });
