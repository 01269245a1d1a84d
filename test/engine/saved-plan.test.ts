/**
 * What the apply of a saved plan reads of its file (engine/host/saved-plan.ts): the addresses of its
 * changes, and its `tfplan` entry read as planfile.proto lays it out, refused whole when it does not parse.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { forgottenObjects, managedTypeOf } from '../../packages/framework/src/engine/host/saved-plan.js';
import { writeZip } from '../../packages/framework/src/release/zip.js';

describe('engine: a saved plan’s file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'keel-saved-plan-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the type of a managed resource instance’s address, through modules, keys with dots, brackets and quotes', () => {
    const cases: [string, string | undefined][] = [
      ['fake_thing.a', 'fake_thing'],
      ['fake_thing.a[0]', 'fake_thing'],
      ['module.m.fake_thing.a["x.y"]', 'fake_thing'],
      ['module.m["a.b]\\"c"].module.n[3].fake_thing.a["k.\\"]."]', 'fake_thing'],
      ['data.fake_thing.a', undefined],
      ['module.m.data.fake_thing.a', undefined],
      ['fake_thing', undefined],
    ];
    for (const [addr, type] of cases) expect(managedTypeOf(addr), addr).to.equal(type);
  });

  function planFile(tfplan: Uint8Array): string {
    const path = join(dir, 'p.tfplan');
    writeZip(path, [{ name: 'tfplan', data: Buffer.from(tfplan), executable: false }]);
    return path;
  }

  it('forgets and creates-then-forgets only, of the provider’s own types', async () => {
    const change = (addr: string, action: number, value: string) => {
      const dynamic = protobuf.Writer.create()
        .uint32((1 << 3) | 2)
        .bytes(Buffer.from(value))
        .finish();
      const body = protobuf.Writer.create()
        .uint32(1 << 3)
        .uint32(action)
        .uint32((2 << 3) | 2)
        .bytes(dynamic)
        .finish();
      return protobuf.Writer.create()
        .uint32((13 << 3) | 2)
        .string(addr)
        .uint32((9 << 3) | 2)
        .bytes(body)
        .finish();
    };
    const plan = protobuf.Writer.create()
      .uint32(1 << 3)
      .uint64(3);
    for (const [addr, action, value] of [
      ['fake_thing.a', 8, 'forgotten'],
      ['fake_thing.b', 9, 'replaced, old forgotten'],
      ['fake_thing.c', 5, 'deleted'],
      ['other_thing.d', 8, 'another provider’s'],
      // An unknown field between them is skipped.
    ] as const)
      plan
        .uint32((3 << 3) | 2)
        .bytes(change(addr, action, value))
        .uint32((99 << 3) | 2)
        .string('later field');
    const found = await forgottenObjects(planFile(plan.finish()), 'fake_');
    expect(found.map((f) => [f.type, f.msgpack.toString()])).to.deep.equal([
      ['fake_thing', 'forgotten'],
      ['fake_thing', 'replaced, old forgotten'],
    ]);
  });

  it('a `tfplan` entry that does not parse is refused whole, saying where', async () => {
    const cut = protobuf.Writer.create()
      .uint32((3 << 3) | 2)
      .uint32(50)
      .finish();
    let error: unknown;
    await forgottenObjects(planFile(cut), 'fake_').catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/truncated/);
  });
});
