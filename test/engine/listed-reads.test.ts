/**
 * Reads by listing (packages/framework/src/engine/resources/listed-reads.ts), on a fake platform that
 * counts its calls: a walk's first read of a type goes alone, its second takes the type's listing,
 * which answers every later read; what the listing lacks is read alone (and reported gone only then);
 * a listing that fails, or whose pages outnumber what is worth reading, leaves reads to their own
 * calls; a process that changed an object of the type reads alone from then on. Every state equals
 * what a read alone gives.
 */
import { expect } from 'chai';
import { attr, resourceSchema } from '../../packages/framework/src/schema/define.js';
import { provider, resource } from '../../packages/framework/src/engine/contracts/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { ApiError } from '../../packages/framework/src/wire/api-error.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { quietLogger } from '../support/quiet-logger.js';

interface Item {
  key: string;
  size: number;
}

/** The fake platform: its objects, the calls it got, and how its listing behaves. */
class Platform {
  readonly objects = new Map<string, Item>();
  readonly calls: string[] = [];
  pageSize = 100;
  /** Says how many objects the listing holds, as paged APIs do. */
  tellsTotal = false;
  /** The listing's page that fails with a rate limit (1-based), if any. */
  failingPage: number | undefined;

  get(key: string): Item {
    this.calls.push(`get ${key}`);
    const item = this.objects.get(key);
    if (!item) throw new ApiError('no such thing', { code: 'not_found', operation: 'GET /things/{key}', status: 404 });
    return { ...item };
  }

  /** The listing of the objects whose keys begin with `scope` (every object: ''), in pages. */
  async *pages(scope = ''): AsyncIterable<{ objects: Item[]; total?: number }> {
    const all = [...this.objects.values()].filter((item) => item.key.startsWith(scope)).map((item) => ({ ...item }));
    for (let page = 1, at = 0; at < all.length || page === 1; page += 1, at += this.pageSize) {
      this.calls.push(`list ${scope === '' ? '' : `${scope} `}page ${page}`);
      if (page === this.failingPage)
        throw new ApiError('slow down', { code: 'rate_limited', operation: 'GET /things', status: 429 });
      yield { objects: all.slice(at, at + this.pageSize), ...(this.tellsTotal ? { total: all.length } : {}) };
    }
  }
}

const fields = {
  key: attr.string({ required: true, description: 'The key.' }),
  size: attr.number({ optional: true, description: 'The size.' }),
};
type Model = { key: string; size: number | null };

/** A fake type, listed whole or, `scoped`, per the prefix of its keys before the first `-` (an account). */
const thingType = (scoped: boolean) =>
  resource<typeof fields, Platform>({
    typeName: 'fake_thing',
    schema: resourceSchema(fields, { description: 'A thing.' }),
    findCreated: {
      key: 'its key',
      uniqueKey: true,
      describe: (plan) => `the thing ${plan.key}`,
      list: async (_plan, ctx) => [...ctx.client.objects.values()],
      holdsKey: (plan, found) => found.key === plan.key,
      importId: (found) => found.key ?? '',
    },
    async create(plan, ctx) {
      ctx.client.objects.set(plan.key, { key: plan.key, size: plan.size ?? 0 });
      return plan;
    },
    read: async (prior, ctx) => ctx.client.get(prior.key),
    readsByListing: {
      ...(scoped ? { scope: (prior: Model) => prior.key.split('-')[0]! } : {}),
      pages: (ctx, prior) => ctx.client.pages(scoped ? prior.key.split('-')[0] : ''),
      idOf: (item: Item) => item.key,
      read: (item: Item) => item,
    },
    async delete(prior, ctx) {
      ctx.client.objects.delete(prior.key);
    },
  });

async function engineOn(platform: Platform, scoped = false): Promise<ProviderEngine<Platform>> {
  const engine = new ProviderEngine(
    provider({
      name: 'fake',
      version: '1.0.0',
      schema: resourceSchema({}, { description: 'Fake.' }),
      configure: async () => platform,
      resources: [thingType(scoped)],
      dataSources: [],
    }),
    quietLogger,
    {},
  );
  await engine.configureProvider('1.15.0', {});
  return engine;
}

const stateOf = (m: Model): ObjectValue => ({ key: m.key, size: m.size });

/** A platform holding `count` things, `thing-0` … , each of size 1. */
function platformWith(count: number): Platform {
  const platform = new Platform();
  for (let i = 0; i < count; i += 1) platform.objects.set(`thing-${i}`, { key: `thing-${i}`, size: 1 });
  return platform;
}

/** Reads every state at once, as Terraform's walk does, and answers the states in order (calls come in any order). */
async function readAll(engine: ProviderEngine<Platform>, keys: string[]): Promise<(ObjectValue | null)[]> {
  const outcomes = await Promise.all(
    keys.map((key) => engine.readResource('fake_thing', stateOf({ key, size: 1 }), {})),
  );
  for (const o of outcomes) expect(o.diags.items.map((d) => d.summary)).to.deep.equal([]);
  return outcomes.map((o) => o.state);
}

const keys = (count: number) => Array.from({ length: count }, (_, i) => `thing-${i}`);

describe('engine: reads by listing', () => {
  it('one object of a type: read alone, no listing', async () => {
    const platform = platformWith(3);
    const states = await readAll(await engineOn(platform), ['thing-1']);
    expect(states).to.deep.equal([{ key: 'thing-1', size: 1 }]);
    expect(platform.calls).to.deep.equal(['get thing-1']);
  });

  it('many: the first read alone, one listing for the rest, and drift seen as a read alone sees it', async () => {
    const platform = platformWith(50);
    platform.objects.get('thing-7')!.size = 9;
    const states = await readAll(await engineOn(platform), keys(50));
    expect(states.map((s) => s?.size)).to.deep.equal(keys(50).map((k) => (k === 'thing-7' ? 9 : 1)));
    expect(platform.calls.sort()).to.deep.equal(['get thing-0', 'list page 1']);
  });

  it('an object the listing lacks is read alone before it is reported gone', async () => {
    const platform = platformWith(5);
    platform.objects.delete('thing-3');
    const states = await readAll(await engineOn(platform), keys(5));
    expect(states.map((s) => s?.key ?? null)).to.deep.equal(['thing-0', 'thing-1', 'thing-2', null, 'thing-4']);
    expect(platform.calls.sort()).to.deep.equal(['get thing-0', 'get thing-3', 'list page 1']);
  });

  it('pages: all read while they are worth it; only the first where they outnumber what is read', async () => {
    const few = platformWith(4);
    few.pageSize = 2;
    few.tellsTotal = true;
    await readAll(await engineOn(few), keys(4));
    expect(few.calls.sort()).to.deep.equal(['get thing-0', 'list page 1', 'list page 2']);

    const many = platformWith(9);
    many.pageSize = 3;
    many.tellsTotal = true;
    const states = await readAll(await engineOn(many), keys(9));
    expect(states.every((s) => s?.size === 1)).to.equal(true);
    // The first page answers what it holds; the rest are read alone, never listed further.
    expect(many.calls.filter((c) => c.startsWith('list'))).to.deep.equal(['list page 1']);
    expect(many.calls.filter((c) => c.startsWith('get')).sort()).to.deep.equal(
      ['thing-0', 'thing-3', 'thing-4', 'thing-5', 'thing-6', 'thing-7', 'thing-8'].map((k) => `get ${k}`),
    );
  });

  it('a listing cut off by a rate limit: what its pages gave is used, the rest read alone', async () => {
    const platform = platformWith(6);
    platform.pageSize = 2;
    platform.failingPage = 2;
    const states = await readAll(await engineOn(platform), keys(6));
    expect(states.every((s) => s?.size === 1)).to.equal(true);
    expect(platform.calls.filter((c) => c.startsWith('list'))).to.deep.equal(['list page 1', 'list page 2']);
    expect(platform.calls.filter((c) => c.startsWith('get')).sort()).to.deep.equal(
      ['thing-0', 'thing-2', 'thing-3', 'thing-4', 'thing-5'].map((k) => `get ${k}`),
    );

    const first = platformWith(3);
    first.failingPage = 1;
    expect((await readAll(await engineOn(first), keys(3))).every((s) => s?.size === 1)).to.equal(true);
    expect(first.calls.filter((c) => c.startsWith('get'))).to.have.length(3);
  });

  it('a type listed by scope: one listing per scope, each taken at its own second read', async () => {
    const platform = new Platform();
    const scoped = ['a-1', 'a-2', 'a-3', 'b-1', 'b-2', 'c-1'];
    for (const key of scoped) platform.objects.set(key, { key, size: 1 });
    const states = await readAll(await engineOn(platform, true), scoped);
    expect(states.map((s) => s?.key)).to.deep.equal(scoped);
    expect(platform.calls.filter((c) => c.startsWith('list')).sort()).to.deep.equal(['list a page 1', 'list b page 1']);
    expect(platform.calls.filter((c) => c.startsWith('get'))).to.have.length(3);
  });

  it('a process that changed an object of the type reads it alone from then on', async () => {
    const platform = platformWith(4);
    const engine = await engineOn(platform);
    await readAll(engine, keys(2));
    const made = { key: 'made', size: 2 };
    await engine.applyResourceChange('fake_thing', null, made, {}, made);
    platform.calls.length = 0;
    platform.objects.get('thing-1')!.size = 5;
    const states = await readAll(engine, ['thing-1', 'made', 'thing-2']);
    expect(states.map((s) => s?.size)).to.deep.equal([5, 2, 1]);
    expect(platform.calls.sort()).to.deep.equal(['get made', 'get thing-1', 'get thing-2']);
  });
});
