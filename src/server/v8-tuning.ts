/**
 * V8 tuning for the processes that serve resources. Terraform starts a provider process per phase of
 * a command, and the configured one serves four to six calls per resource for a few seconds, then
 * exits: V8's default optimises a function as soon as it is warm, and in such a process compiling
 * the engine's, the codecs' and node's HTTP/2 code with TurboFan costs more than it saves. A larger
 * interrupt budget lets a function run longer in baseline code before it is optimised: measured on
 * 200 refreshed resources, 23% less CPU; on 1,000, no difference (README, "Benchmarks").
 *
 * Set at run time, after ConfigureProvider, rather than as a node option: a V8 flag changes V8's
 * flag hash, and code caches made under other flags are rejected, that of the bundle and node's own
 * for the built-in modules loaded afterwards (~40 ms of every start as an option; nothing here, as
 * configuring loaded the modules the process needs).
 */
import { setFlagsFromString } from 'node:v8';

/**
 * Bytecode a function executes between V8's checks whether to optimise it: node 20's default is
 * 67,584; about six times that suits processes that live seconds (twelve times did worse on 1,000
 * resources).
 */
const INTERRUPT_BUDGET = 400_000;

let tuned = false;

export function tuneForServing(): void {
  // The build's warm-up run writes the bundle's code cache as it exits: under changed flags V8 would
  // tag it with their hash, and every start would reject it.
  if (tuned || process.env.KEEL_WRITE_CODE_CACHE === '1') return;
  tuned = true;
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}
