/**
 * Property tests at the RPC handler level (fast-check, fixed seeds): every hostile request — random
 * or truncated msgpack, wrong kinds, invalid UTF-8, lying lengths, 100k-deep nesting, huge strings,
 * unknown type names, garbage raw state and private state, malformed protobuf — gets an answer with
 * an error diagnostic (or a normal answer where the input happens to be acceptable), in bounded time,
 * never an exception and never a diagnostic blaming a provider bug.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import { catalogueOf, hostileRequestArb, IN_PROCESS_SCALE, type HostileRequest } from './hostile.js';
import { classifyResponse, inProcessProvider, internalErrorText, within, type AnswerKind } from './answers.js';

// FUZZ_RUNS / FUZZ_SEED explore further locally; CI uses the fixed defaults.
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const SEEDS = process.env.FUZZ_SEED
  ? { sec: Number(process.env.FUZZ_SEED), vdb: Number(process.env.FUZZ_SEED) + 1 }
  : { sec: 5_150_001, vdb: 5_150_002 };
/** Generous: a handler that needs this long on any input is hanging. */
const ANSWER_WITHIN_MS = 15_000;

for (const def of [secDef, vdbDef]) {
  const name = def.name as 'sec' | 'vdb';
  describe(`RPC handlers under hostile input (${name}, fast-check)`, function () {
    this.timeout(240_000);
    const catalogue = catalogueOf(def);
    const provider = inProcessProvider(def);

    it('answer every hostile request with a diagnostic or a normal answer, never an exception', async () => {
      const tally = new Map<string, number>();
      const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
      let slowest = 0;
      await fc.assert(
        fc.asyncProperty(hostileRequestArb(catalogue, IN_PROCESS_SCALE, { big: true }), async (req: HostileRequest) => {
          const started = performance.now();
          const res = await within(
            ANSWER_WITHIN_MS,
            `${req.rpc} (${req.category})`,
            provider.callBytes(req.rpc, req.bytes),
          );
          const took = performance.now() - started;
          slowest = Math.max(slowest, took);
          // A handler that blocks the event loop answers before `within`'s timer can fire: the
          // bound is checked on the time the answer took, too.
          expect(took, `${req.rpc} (${req.category}) took ${Math.round(took)} ms`).to.be.below(ANSWER_WITHIN_MS);
          if (res === null) {
            expect(req.wellFormed, `${req.rpc} ${req.category}: a well-formed request must decode`).to.equal(false);
            count('not protobuf');
            return;
          }
          const kind: AnswerKind = classifyResponse(req.rpc, res);
          count(kind);
          expect(kind, `${req.rpc} ${req.category}: ${internalErrorText(res)}`).to.not.equal('internal');
          expect(kind, `${req.rpc} ${req.category}`).to.not.equal('invalid-diagnostic');
          if (req.mustFail) expect(kind, `${req.rpc} ${req.category} must be answered with an error`).to.equal('error');
        }),
        { seed: SEEDS[name], numRuns: RUNS },
      );
      console.log(
        `      ${name}: ${RUNS} hostile requests in process: ${[...tally].map(([k, v]) => `${k} ${v}`).join(', ')}; slowest ${Math.round(slowest)} ms`,
      );
      // Both outcomes occur: the generator reaches past decoding as well as failing it.
      expect(tally.get('error') ?? 0).to.be.greaterThan(RUNS / 4);
      expect(tally.get('success') ?? 0).to.be.greaterThan(0);
      expect(({} as Record<string, unknown>).polluted, 'no prototype pollution from private state').to.equal(undefined);
    });
  });
}
