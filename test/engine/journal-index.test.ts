/**
 * The journal's index of records (packages/framework/src/engine/journal/journal-index.ts) answers every question as a
 * walk over
 * all its records would, after any sequence of records written, answered, renamed and removed.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { IndexEntry } from '../../packages/framework/src/engine/journal/journal-files.js';
import { RecordIndex } from '../../packages/framework/src/engine/journal/journal-index.js';

const TYPES = ['a_thing', 'b_thing'];
const DIGESTS = ['0000000000000001', '0000000000000002', '0000000000000003'];

const entryArb = fc.record({
  rid: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6'),
  type: fc.constantFrom(...TYPES),
  key: fc.constantFrom(...DIGESTS),
  settings: fc.constantFrom(...DIGESTS),
  idDigest: fc.constantFrom(null, ...DIGESTS),
});
const opArb = fc.oneof(
  entryArb.map((e) => ({ op: 'set' as const, entry: { ...e, name: `r~${e.type}~${e.rid}` } satisfies IndexEntry })),
  fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7').map((rid) => ({ op: 'delete' as const, rid })),
);

const rids = (entries: readonly IndexEntry[]) => entries.map((e) => e.rid).sort();

describe('engine: the index of create records', () => {
  it('answers as a walk over every record does, after any writes, answers and removals', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const index = new RecordIndex();
        const all = new Map<string, IndexEntry>();
        for (const step of ops) {
          if (step.op === 'set') {
            index.set(step.entry);
            all.set(step.entry.rid, step.entry);
          } else {
            index.delete(step.rid);
            all.delete(step.rid);
          }
        }
        const records = [...all.values()];
        for (const type of TYPES) {
          const ofType = records.filter((e) => e.type === type);
          expect(rids(index.ofType(type))).to.deep.equal(rids(ofType));
          expect(index.hasType(type)).to.equal(ofType.length > 0);
          for (const idDigest of [null, ...DIGESTS])
            expect(rids(index.answeredWith(type, idDigest))).to.deep.equal(
              rids(ofType.filter((e) => e.idDigest === idDigest)),
            );
          for (const key of DIGESTS)
            for (const settings of DIGESTS) {
              const asked = { type, key, settings };
              const sameKey = ofType.filter((e) => e.key === key);
              expect(rids(index.matching(asked, { anySettings: true }))).to.deep.equal(rids(sameKey));
              expect(rids(index.matching(asked))).to.deep.equal(rids(sameKey.filter((e) => e.settings === settings)));
            }
        }
      }),
      { numRuns: 500 },
    );
  });
});
