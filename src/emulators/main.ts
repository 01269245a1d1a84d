/**
 * `node dist/src/emulators/main.js <name> [--port N]`: runs one emulator on 127.0.0.1 in the
 * foreground. When it is ready it prints exactly one JSON line on stdout (its URL and credentials);
 * anything else goes to stderr. SIGINT/SIGTERM stop it.
 */
import { startSecEmulator } from './sec/index.js';
import { startVdbEmulator } from './vdb/index.js';

interface Started {
  readonly ready: Record<string, unknown>;
  close(): Promise<void>;
}

/** Add an emulator here: name → start function returning its ready line. */
const EMULATORS: Record<string, (port: number) => Promise<Started>> = {
  sec: async (port) => {
    const emulator = await startSecEmulator({ port });
    return {
      ready: { url: emulator.url, account: emulator.account, api_key: emulator.apiKey, api_secret: emulator.apiSecret },
      close: () => emulator.close(),
    };
  },
  vdb: async (port) => {
    const emulator = await startVdbEmulator({ port });
    return {
      ready: { url: emulator.url, api_key: emulator.apiKey, account_id: emulator.accountId },
      close: () => emulator.close(),
    };
  },
};

const USAGE = `usage: main.js <${Object.keys(EMULATORS).join('|')}> [--port N]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parsePort(args: string[]): number {
  let port = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = arg === '--port' ? args[++i] : arg.startsWith('--port=') ? arg.slice('--port='.length) : undefined;
    if (value === undefined) fail(arg === '--port' ? '--port needs a value' : `unknown argument: ${arg}`);
    port = Number(value);
    if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid port: ${value}`);
  }
  return port;
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const start = name === undefined ? undefined : EMULATORS[name];
  if (!start) fail(name === undefined ? 'missing emulator name' : `unknown emulator: ${name}`);
  const started = await start(parsePort(rest));
  process.stdout.write(`${JSON.stringify(started.ready)}\n`);

  const stop = (signal: string): void => {
    process.stderr.write(`${name} emulator: ${signal}, stopping\n`);
    started.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
