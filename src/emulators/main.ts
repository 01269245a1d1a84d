/**
 * `node dist/src/emulators/main.js <name> [--port N] [fault flags]`: runs one emulator on
 * 127.0.0.1 in the foreground. When it is ready it prints exactly one JSON line on stdout (its URL
 * and credentials); anything else goes to stderr. With `--fault-rate` it injects seeded faults (see
 * cli.ts USAGE), prints the profile at start and the fault counters when stopped. SIGINT/SIGTERM
 * stop it.
 */
import {
  describeFaultProfile,
  describeFaultStats,
  faultProfileSettings,
  type FaultProfileOptions,
  type FaultStats,
  type QuotaOptions,
} from './core/index.js';
import { USAGE, UsageError, parseEmulatorArgs, type EmulatorName } from './cli.js';
import { startSecEmulator } from './sec/index.js';
import { startVdbEmulator } from './vdb/index.js';

interface Started {
  readonly ready: Record<string, unknown>;
  faultStats(): FaultStats;
  close(): Promise<void>;
}

interface StartOptions {
  readonly port: number;
  readonly faultProfile?: FaultProfileOptions;
  readonly rateLimit?: QuotaOptions;
}

/** Add an emulator here (and its name in cli.ts): name → start function returning its ready line. */
const EMULATORS: Record<EmulatorName, (options: StartOptions) => Promise<Started>> = {
  sec: async (options) => {
    const emulator = await startSecEmulator(options);
    return {
      ready: { url: emulator.url, account: emulator.account, api_key: emulator.apiKey, api_secret: emulator.apiSecret },
      faultStats: () => emulator.faultStats(),
      close: () => emulator.close(),
    };
  },
  vdb: async (options) => {
    const emulator = await startVdbEmulator(options);
    return {
      ready: { url: emulator.url, api_key: emulator.apiKey, account_id: emulator.accountId },
      faultStats: () => emulator.faultStats(),
      close: () => emulator.close(),
    };
  },
};

function parseOrExit(argv: string[]): ReturnType<typeof parseEmulatorArgs> {
  try {
    return parseEmulatorArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
}

async function main(argv: string[]): Promise<void> {
  const args = parseOrExit(argv);
  const { name, faultProfile, rateLimit } = args;
  const started = await EMULATORS[name]({
    port: args.port,
    ...(faultProfile ? { faultProfile } : {}),
    ...(rateLimit ? { rateLimit } : {}),
  });
  if (faultProfile) {
    const reproduce = args.seedWasRandom ? ` (random seed: pass --fault-seed ${faultProfile.seed} to reproduce)` : '';
    process.stderr.write(
      `${name} emulator: fault profile: ${describeFaultProfile(faultProfileSettings(faultProfile))}${reproduce}\n`,
    );
  }

  const stop = (signal: string): void => {
    if (faultProfile) process.stderr.write(`${name} emulator: faults: ${describeFaultStats(started.faultStats())}\n`);
    process.stderr.write(`${name} emulator: ${signal}, stopping\n`);
    started.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Last: whoever reads the ready line may stop the emulator at once.
  process.stdout.write(`${JSON.stringify(started.ready)}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
