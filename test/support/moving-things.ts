/**
 * A provider for the tests of state moved across resource types (MoveResourceState,
 * packages/framework/src/engine/resources/resource-moves.ts): `mover`, whose platform keeps things (a name, a size,
 * labels, in an
 * account), served by two resource types, the deprecated `mover_old_thing` and `mover_thing` that
 * replaces it and takes its state (`moveFrom`), also the state of another provider's
 * `legacy_widget`; and `mover_note`, which takes none. The platform is a JSON file when `MOVER_STORE`
 * names one (the executable, test/acceptance/moving-provider.ts: Terraform starts a process per walk),
 * otherwise the memory of the process.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { attr, block, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { provider, resource, type ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import type { MoveSource } from '../../packages/framework/src/engine/contracts/index.js';

export interface StoredThing {
  id: string;
  name: string;
  size: number | null;
  labels: { key: string; value: string }[];
  account: string;
}

/** The platform: things by id, in a file or in memory. */
export class Shelf {
  private memory: { seq: number; things: Record<string, StoredThing> } = { seq: 0, things: {} };
  constructor(
    private readonly file?: string,
    readonly account = 'main',
  ) {}
  private load() {
    if (this.file && existsSync(this.file)) this.memory = JSON.parse(readFileSync(this.file, 'utf8'));
    return this.memory;
  }
  private save() {
    if (this.file) writeFileSync(this.file, JSON.stringify(this.memory));
  }
  get(id: string): StoredThing | undefined {
    return this.load().things[id];
  }
  put(thing: Omit<StoredThing, 'id'> & { id?: string }): StoredThing {
    const data = this.load();
    const stored = { ...thing, id: thing.id ?? `t-${++data.seq}` };
    data.things[stored.id] = stored;
    this.save();
    return stored;
  }
  remove(id: string): void {
    delete this.load().things[id];
    this.save();
  }
  all(): StoredThing[] {
    return Object.values(this.load().things);
  }
}

const identity = {
  attributes: {
    id: { description: 'The id of the thing.', forImport: 'required' as const },
    account: {
      description: "The account that holds it (the provider's when empty).",
      forImport: 'optional' as const,
      providerDefault: (shelf: Shelf) => shelf.account,
    },
  },
};

const account = attr.string({
  optional: true,
  computed: true,
  description: "The account (the provider's by default).",
});

/** The deprecated type: the same things, with `title` for the name and labels as a map (schema version 1). */
const oldSchema = resourceSchema(
  {
    id: attr.sdkId(),
    title: attr.string({ required: true, description: 'The name.' }),
    size: attr.number({ optional: true, description: 'A size.' }),
    labels: attr.stringMap({ optional: true, description: 'Labels.' }),
    // The old API never said which account holds a thing: its state has the account only where configured.
    account: attr.string({ optional: true, description: "The account (the provider's when empty)." }),
  },
  {
    description: 'A thing, the old way.',
    version: 1,
    deprecated: 'Use mover_thing (a `moved` block takes its state).',
  },
);
const oldThing = resource<(typeof oldSchema)['fields'], Shelf>({
  typeName: 'mover_old_thing',
  schema: oldSchema,
  repeatableCreate: 'test double',
  importState: async (id) => ({ id }),
  async create(plan, ctx) {
    const labels = Object.entries(plan.labels ?? {}).map(([key, value]) => ({ key, value }));
    const made = ctx.client.put({
      name: plan.title,
      size: plan.size,
      labels,
      account: plan.account ?? ctx.client.account,
    });
    return { id: made.id };
  },
  async read(prior, ctx) {
    const t = ctx.client.get(prior.id!);
    if (!t) return null;
    const labels = Object.fromEntries(t.labels.map((l) => [l.key, l.value]));
    return { id: t.id, title: t.name, size: t.size, labels: t.labels.length > 0 ? labels : null };
  },
  async delete(prior, ctx) {
    ctx.client.remove(prior.id!);
  },
  identity,
});

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** Labels from a stored map; a value that is no text is kept as its JSON (String() throws on some objects). */
const labelsOf = (v: unknown) =>
  v !== null && typeof v === 'object'
    ? Object.entries(v).map(([key, value]) => ({
        key,
        value: typeof value === 'string' ? value : JSON.stringify(value),
      }))
    : [];

/** The type that replaces mover_old_thing and takes its state, and the state of example/legacy's widgets. */
const thingSchema = resourceSchema(
  {
    id: attr.sdkId(),
    name: attr.string({ required: true, description: 'The name.' }),
    size: attr.number({ optional: true, description: 'A size.' }),
    secret: attr.string({ optional: true, writeOnly: true, description: 'A secret, sent and never kept.' }),
    account,
    label: block.list(
      {
        key: attr.string({ required: true, description: 'The key.' }),
        value: attr.string({ required: true, description: 'The value.' }),
      },
      { description: 'A label.' },
    ),
  },
  { description: 'A thing.' },
);
export type ThingFields = (typeof thingSchema)['fields'];
export const thing = resource<ThingFields, Shelf>({
  typeName: 'mover_thing',
  schema: thingSchema,
  repeatableCreate: 'test double',
  importState: async (id) => ({ id }),
  moveFrom: [
    {
      sourceType: 'mover_old_thing',
      // Version 1 only: no state of version 0 was ever written.
      move: (source: MoveSource) =>
        source.schemaVersion !== 1
          ? null
          : {
              id: text(source.state.id),
              name: text(source.state.title) ?? '',
              size: typeof source.state.size === 'number' ? source.state.size : null,
              account: text(source.state.account),
              label: labelsOf(source.state.labels),
            },
    },
    {
      sourceType: 'legacy_widget',
      sourceProvider: 'example/legacy',
      move: (source) => ({ id: text(source.state.widget_id), name: text(source.state.display_name) ?? '' }),
    },
  ],
  async create(plan, ctx) {
    const made = ctx.client.put({
      name: plan.name,
      size: plan.size,
      labels: plan.label,
      account: plan.account ?? ctx.client.account,
    });
    return { id: made.id, account: made.account };
  },
  async read(prior, ctx) {
    const t = ctx.client.get(prior.id!);
    return t ? { id: t.id, name: t.name, size: t.size, label: t.labels, account: t.account } : null;
  },
  async update(plan, _prior, ctx) {
    ctx.client.put({ id: plan.id!, name: plan.name, size: plan.size, labels: plan.label, account: plan.account! });
    return {};
  },
  async delete(prior, ctx) {
    ctx.client.remove(prior.id!);
  },
  identity,
});

/** A type that takes no moved state. */
const noteSchema = resourceSchema(
  { id: attr.sdkId(), text: attr.string({ required: true, description: 'The text.' }) },
  { description: 'A note.' },
);
const note = resource<(typeof noteSchema)['fields'], Shelf>({
  typeName: 'mover_note',
  schema: noteSchema,
  repeatableCreate: 'test double',
  async create(plan) {
    return { id: `n-${plan.text}` };
  },
  async read(prior) {
    return prior;
  },
  async delete() {},
  identity: { attributes: { id: { description: 'The id.', forImport: 'required' } } },
});

/** The provider; `shelf` is its platform (by default a file `MOVER_STORE` names, or memory). */
export function moverProvider(shelf?: Shelf): ProviderDef<any, Shelf> {
  return provider({
    name: 'mover',
    version: '0.0.1',
    schema: resourceSchema(
      { account: attr.string({ optional: true, description: 'The default account.' }) },
      { description: 'A provider of things that move.' },
    ),
    configure: async (config, ctx) => shelf ?? new Shelf(ctx.env.MOVER_STORE, config.account ?? 'main'),
    resources: [oldThing, thing, note],
    dataSources: [],
  });
}
