/**
 * V8 tuning for the processes that serve resources. Terraform starts a provider process per phase of
 * a command, and the configured one serves four to six calls per resource for a few seconds, then
 * exits: V8's default optimises a function as soon as it is warm, and in such a process compiling
 * the engine's, the codecs' and node's HTTP/2 code with TurboFan costs more than it saves. A larger
 * interrupt budget lets a function run longer in baseline code before it is optimised: measured on
 * 200 refreshed resources, 23% less CPU; on 1,000, no difference (README, "Benchmarks").
 *
 * Set at run time, once ConfigureProvider has answered, rather than as a node option: a V8 flag
 * changes V8's flag hash, and code caches made under other flags are rejected, those of the bundles
 * and node's own for the built-in modules loaded afterwards (~40 ms of every start as an option).
 * The first call to the platform loads the API client's bundle and the node modules it uses, so V8's
 * default is put back until that call has answered (~15 ms of compiling otherwise).
 */
import { setFlagsFromString } from 'node:v8';
import type { ServingPhases } from './provider-service.js';

/**
 * Bytecode a function executes between V8's checks whether to optimise it: about six times node
 * 20's default suits processes that live seconds (twelve times did worse on 1,000 resources).
 */
const INTERRUPT_BUDGET = 400_000;

/**
 * V8's own budget, to put back while code caches are being read. Known for the V8 the tuning was
 * measured on (node 20's); under another, the process runs untuned.
 */
const DEFAULT_INTERRUPT_BUDGET = process.versions.v8.startsWith('11.3.') ? 67_584 : undefined;

/** Whether the flags may change: the build's warm-up writes code caches, which must carry V8's default. */
const tunable = DEFAULT_INTERRUPT_BUDGET !== undefined && process.env.KEEL_WRITE_CODE_CACHE !== '1';

let configured = false;
let loading = false;
let tuned = false;

function apply(): void {
  const want = tunable && configured && !loading;
  if (want === tuned) return;
  tuned = want;
  setFlagsFromString(`--interrupt-budget=${want ? INTERRUPT_BUDGET : DEFAULT_INTERRUPT_BUDGET}`);
}

/** The executable's answer to the service's phases: tuned from configuring on, but not while the API client loads. */
export const servingTuning: ServingPhases = {
  configured() {
    configured = true;
    apply();
  },
  firstPlatformCallBegins() {
    loading = true;
    apply();
  },
  firstPlatformCallAnswered() {
    loading = false;
    apply();
  },
};
