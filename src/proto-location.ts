/**
 * Where protobuf definitions are found at run time. One module for both the tfplugin6 server and
 * the vdb client, and the only one that looks at its own location, so the bundled executables
 * (dist/bundle/*.cjs) and the unbundled build (dist/src/**) resolve the same files:
 * dist/src/proto-location.js and dist/bundle/<name>.cjs both sit one level below dist/.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The JSON descriptors written by scripts/build-proto.mjs: dist/proto/<name>. */
export function builtDescriptorPath(fileName: string): string {
  return resolve(here, '../proto', fileName);
}

/**
 * Nearest `proto/` folder holding `marker` (a file or folder), searching upward from each start:
 * the fallback when running without a build of the descriptors.
 */
export function findProtoSourceDir(marker: string, starts: string[] = [here, process.cwd()]): string | undefined {
  for (const start of starts) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const candidate = join(dir, 'proto');
      if (existsSync(join(candidate, marker))) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}
