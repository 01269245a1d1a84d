/**
 * A type that cannot find what a create made (no `findCreated`, no `repeatableCreate`):
 * packages/framework/src/engine/creates/unfound-creates.ts. Its create is written down before it leaves,
 * and while no run of the state learned what came of it, the plan of a create with the very same
 * settings says that applying may make a second object; applying is the user's answer, after which
 * nothing more is said. Runs of the fake platform on one working directory (./fake-thing.ts).
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Platform, Run, removeRuns } from './fake-thing.js';

const WARNING = 'An earlier create of fake_thing may have made this object';
const blind = { findsCreated: false } as const;

describe('engine: a create that nothing can find again', function () {
  this.timeout(20_000);
  let dir: string;
  let api: Platform;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-unfound-'));
    api = new Platform();
  });
  afterEach(() => removeRuns(dir));

  const warnings = (out: { diags: { items: readonly { summary: string }[] } }) => out.diags.items.map((d) => d.summary);

  it('cut off with its request out: the next plan of the same settings says a second may be made; applying ends it', async () => {
    await (await Run.start(api, dir, blind)).createKilled('x', 'killed-after');
    expect(api.things.size).to.equal(1);
    const next = await Run.start(api, dir, blind);
    const plan = await next.plan('x');
    expect(warnings(plan)).to.deep.equal([WARNING]);
    expect(plan.diags.items[0]!.detail)
      .to.include('sent a request to create fake_thing with these very settings')
      .and.include('its run was cut off with the request out')
      .and.include('it declares no findCreated')
      .and.include('import it into this resource');
    // Other settings are another object: nothing to say.
    expect(warnings(await next.plan('x', 'red'))).to.deep.equal([]);
    // The user applied anyway: a second object, as said, and the earlier request is settled.
    const out = await next.create('x');
    expect(warnings(out)).to.deep.equal([]);
    expect(api.things.size).to.equal(2);
    expect(warnings(await (await Run.start(api, dir, blind)).plan('x'))).to.deep.equal([]);
  });

  it('an answer lost in a run that ended in order: reported at once, and the next plan says why it cannot know', async () => {
    api.fates.push('lost-after');
    const first = await Run.start(api, dir, blind);
    const lost = await first.create('x');
    expect(warnings(lost)).to.deep.equal(['Create outcome unknown']);
    expect(lost.diags.items[0]!.detail).to.include('does not send the request again');
    await first.engine.ended();
    expect(api.creates).to.equal(1);
    const plan = await (await Run.start(api, dir, blind)).plan('x');
    expect(warnings(plan)).to.deep.equal([WARNING]);
    expect(plan.diags.items[0]!.detail).to.include('its answer was lost, or came after');
  });

  it('a create that was answered, or refused, leaves nothing to say; nor does another workspace’s request', async () => {
    const first = await Run.start(api, dir, blind);
    expect(warnings(await first.create('x'))).to.deep.equal([]);
    await first.engine.ended();
    expect(warnings(await (await Run.start(api, dir, blind)).plan('x'))).to.deep.equal([]);
    api.foreign('z');
    const refused = await (await Run.start(api, dir, { ...blind, uniqueNames: true })).create('z');
    expect(warnings(refused)).to.deep.equal(['Cannot create fake_thing']);
    expect(warnings(await (await Run.start(api, dir, blind)).plan('z'))).to.deep.equal([]);
    await (await Run.start(api, dir, { ...blind, workspace: 'staging' })).createKilled('y', 'killed-after');
    expect(warnings(await (await Run.start(api, dir, blind)).plan('y'))).to.deep.equal([]);
    expect(warnings(await (await Run.start(api, dir, { ...blind, workspace: 'staging' })).plan('y'))).to.deep.equal([
      WARNING,
    ]);
  });

  it('a type with findCreated is judged by its records as before, never by this warning', async () => {
    await (await Run.start(api, dir)).createKilled('x', 'killed-after');
    const plan = await (await Run.start(api, dir)).plan('x');
    expect(warnings(plan)).to.deep.equal(['An earlier run was cut off while creating the thing named "x"']);
  });
});
