/**
 * The Windows executable of a release: Node's own node.exe (the pinned runtime) made a Node single
 * executable application of start-windows.cjs (./launchers.ts), which tells by its file name whether it is a
 * provider (terraform-provider-<name>_v<version>.exe) or an emulator (<name>-emulator.exe) and runs
 * the loader and bundles beside it. One executable, byte for byte, serves every role, so it is
 * injected (and deflated) once per release.
 *
 * - The preparation blob is made by the Node 22 runtime of the machine that builds (the blob holds the
 *   script and settings, no code cache or snapshot, so it is the same for every platform: Node's
 *   documentation), with `execArgv` set to the Node options the /bin/sh launchers pass (./launchers.ts).
 * - node.exe's Authenticode signature is removed first (its table is the end of the file, named by
 *   the PE header's security directory): injecting changes the file, so it could only be a broken
 *   signature, and postject would leave the directory pointing into its new section. Windows runs
 *   unsigned executables; a release that wants a signature signs the result.
 * - postject (the Node project's injector) adds the blob as the NODE_SEA_BLOB resource and flips
 *   Node's fuse.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { releaseTools } from './release-tools.js';

/** The fuse Node's single-executable support looks for (Node's documentation). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** The single executable's configuration for `node --experimental-sea-config`. */
export function seaConfig(main: string, output: string, execArgv: readonly string[]) {
  return {
    main,
    output,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    execArgv: [...execArgv],
  };
}

/**
 * node.exe (`windowsNode`) as the release's single executable of `main` (the script's text). `hostNode`
 * runs this machine's Node of the same version to make the blob.
 */
export async function windowsExecutable(
  windowsNode: Buffer,
  hostNode: { file: string; args: string[]; env: Record<string, string> },
  execArgv: readonly string[],
  main: Buffer,
): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-sea-'));
  try {
    // Paths relative to `dir`: the blob would otherwise hold this folder's (random) name.
    writeFileSync(join(dir, 'start-windows.cjs'), main);
    writeFileSync(join(dir, 'sea-config.json'), JSON.stringify(seaConfig('start-windows.cjs', 'sea.blob', execArgv)));
    const made = spawnSync(hostNode.file, [...hostNode.args, '--experimental-sea-config', 'sea-config.json'], {
      cwd: dir,
      env: { ...process.env, ...hostNode.env, NODE_OPTIONS: '' },
      encoding: 'utf8',
    });
    if (made.status !== 0) {
      throw new Error(`Node could not make the single executable's blob: ${made.error?.message ?? made.stderr}`);
    }
    const executable = join(dir, 'executable.exe');
    writeFileSync(executable, withoutSignature(windowsNode));
    // postject reports on the console; its answer is the file or an exception.
    const { inject } = await releaseTools.postject();
    const { log, warn } = console;
    console.log = console.warn = () => undefined;
    try {
      await inject(executable, 'NODE_SEA_BLOB', readFileSync(join(dir, 'sea.blob')), { sentinelFuse: SEA_FUSE });
    } finally {
      console.log = log;
      console.warn = warn;
    }
    return readFileSync(executable);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A PE32+ executable without its Authenticode signature: the security directory (data directory 4,
 * whose address is a file offset) emptied and the certificate table, which must end the file, cut off.
 * The checksum, which covers the file, is set to 0 ("not computed"; Windows checks it for drivers only).
 */
export function withoutSignature(exe: Buffer): Buffer {
  const fail = (why: string): never => {
    throw new Error(`node.exe is not the PE32+ executable expected: ${why}`);
  };
  if (exe.toString('latin1', 0, 2) !== 'MZ') fail('no MZ header');
  const pe = exe.readUInt32LE(0x3c);
  if (exe.toString('latin1', pe, pe + 4) !== 'PE\0\0') fail('no PE signature');
  const optional = pe + 24;
  if (exe.readUInt16LE(optional) !== 0x20b) fail('not PE32+');
  const directories = exe.readUInt32LE(optional + 108);
  if (directories <= 4) return exe;
  const security = optional + 112 + 4 * 8;
  const offset = exe.readUInt32LE(security);
  const size = exe.readUInt32LE(security + 4);
  if (size === 0) return exe;
  if (offset + size !== exe.length) fail('its certificate table is not at the end of the file');
  const stripped = Buffer.from(exe.subarray(0, offset));
  stripped.writeUInt32LE(0, security);
  stripped.writeUInt32LE(0, security + 4);
  stripped.writeUInt32LE(0, optional + 64);
  return stripped;
}
