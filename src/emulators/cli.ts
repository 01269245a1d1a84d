/** Command-line arguments of `npm run emulator -- <name> [flags]` (see main.ts). */
import { randomInt } from 'node:crypto';
import {
  FAULT_KINDS,
  faultProfileProblem,
  quotaProblem,
  type FaultKind,
  type FaultProfileOptions,
  type QuotaOptions,
} from './core/index.js';

export const EMULATOR_NAMES = ['sec', 'vdb'] as const;
export type EmulatorName = (typeof EMULATOR_NAMES)[number];

export interface EmulatorArgs {
  readonly name: EmulatorName;
  /** 0: any free port. */
  readonly port: number;
  /** Present when --fault-rate was given. */
  readonly faultProfile?: FaultProfileOptions;
  /** Whether the seed was drawn at random (no --fault-seed): worth telling the user. */
  readonly seedWasRandom: boolean;
  /** Present when --rate-limit was given. */
  readonly rateLimit?: QuotaOptions;
}

export const USAGE = `usage: main.js <${EMULATOR_NAMES.join('|')}> [--port N] [--rate-limit N]
         [--fault-rate R [--fault-seed N] [--fault-kinds K,...] [--retry-after S] [--slow-ms MS]]
  --rate-limit N     calls per second the account may make (a token bucket, one second's worth at
                     once); faster calls get 429 / RESOURCE_EXHAUSTED with Retry-After
  --fault-rate R     share of API calls faulted, 0 to 1 (turns seeded faults on)
  --fault-seed N     PRNG seed, 0 to 4294967295 (default: random, printed at start)
  --fault-kinds K,.. among ${FAULT_KINDS.join(',')} (default: all)
  --retry-after S    seconds announced by rate-limit faults (default 1)
  --slow-ms MS       delay of slow faults (default 300)`;

/** A bad command line; main.ts prints the message and the usage, and exits with 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const FLAGS = [
  '--port',
  '--rate-limit',
  '--fault-rate',
  '--fault-seed',
  '--fault-kinds',
  '--retry-after',
  '--slow-ms',
] as const;
/** Flags that mean something without --fault-rate. */
const STANDALONE: ReadonlySet<Flag> = new Set(['--port', '--rate-limit']);
type Flag = (typeof FLAGS)[number];

/** The profile option each fault flag sets, to report problems under the flag's name. */
const FLAG_OF_OPTION: Record<keyof FaultProfileOptions, Flag> = {
  rate: '--fault-rate',
  seed: '--fault-seed',
  kinds: '--fault-kinds',
  retryAfterSeconds: '--retry-after',
  slowMs: '--slow-ms',
};

/** Throws UsageError with a message naming the offending flag. */
export function parseEmulatorArgs(
  argv: readonly string[],
  randomSeed: () => number = () => randomInt(0, 2 ** 32),
): EmulatorArgs {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('missing emulator name');
  if (!(EMULATOR_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown emulator: ${name}`);

  const values = new Map<Flag, string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const equals = arg.indexOf('=');
    const flag = (equals >= 0 ? arg.slice(0, equals) : arg) as Flag;
    if (!FLAGS.includes(flag)) throw new UsageError(`unknown argument: ${arg}`);
    const value = equals >= 0 ? arg.slice(equals + 1) : rest[++i];
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    if (values.has(flag)) throw new UsageError(`${flag} is given twice`);
    values.set(flag, value);
  }

  const port = integerFlag(values, '--port') ?? 0;
  if (port < 0 || port > 65535) throw new UsageError(`--port must be from 0 to 65535, got ${values.get('--port')}`);

  const perSecond = numberFlag(values, '--rate-limit');
  const rateLimit = perSecond === undefined ? {} : { rateLimit: { perSecond } };
  const limitProblem = rateLimit.rateLimit ? quotaProblem(rateLimit.rateLimit) : undefined;
  if (limitProblem)
    throw new UsageError(`--rate-limit must be above 0 and at most 1000000, got ${values.get('--rate-limit')}`);

  const rate = numberFlag(values, '--fault-rate');
  if (rate === undefined) {
    const stray = FLAGS.find((flag) => !STANDALONE.has(flag) && values.has(flag));
    if (stray) throw new UsageError(`${stray} needs --fault-rate (the share of calls to fault)`);
    return { name: name as EmulatorName, port, seedWasRandom: false, ...rateLimit };
  }
  const givenSeed = integerFlag(values, '--fault-seed');
  const kinds = values
    .get('--fault-kinds')
    ?.split(',')
    .map((kind) => kind.trim()) as FaultKind[] | undefined;
  const retryAfterSeconds = integerFlag(values, '--retry-after');
  const slowMs = integerFlag(values, '--slow-ms');
  const faultProfile: FaultProfileOptions = {
    seed: givenSeed ?? randomSeed(),
    rate,
    ...(kinds ? { kinds } : {}),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(slowMs === undefined ? {} : { slowMs }),
  };
  const problem = faultProfileProblem(faultProfile);
  if (problem) {
    const flag = FLAG_OF_OPTION[problem.option];
    const shown = problem.option === 'kinds' ? JSON.stringify(problem.value) : values.get(flag);
    throw new UsageError(`${flag} ${problem.problem}, got ${shown}`);
  }
  return { name: name as EmulatorName, port, faultProfile, seedWasRandom: givenSeed === undefined, ...rateLimit };
}

function numberFlag(values: ReadonlyMap<Flag, string>, flag: Flag): number | undefined {
  const text = values.get(flag);
  if (text === undefined) return undefined;
  // Number('') and Number(' ') are 0; Number('0x10') is 16: accept plain decimals only.
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim()))
    throw new UsageError(`${flag} must be a number, got ${text}`);
  return Number(text);
}

function integerFlag(values: ReadonlyMap<Flag, string>, flag: Flag): number | undefined {
  const value = numberFlag(values, flag);
  if (value !== undefined && !Number.isInteger(value))
    throw new UsageError(`${flag} must be a whole number, got ${values.get(flag)}`);
  return value;
}
