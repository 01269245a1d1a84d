/**
 * The release's launchers are made from the checkout's bin/ wrappers, so that how a provider starts
 * (its trust settings, its Node options) is written in one place:
 *
 * - macOS and Linux: the /bin/sh launcher is bin/terraform-provider-<name> up to its exec line (where
 *   it finds itself and what it does to the environment), then the same exec of the runtime beside
 *   it, with the same Node options;
 * - Windows: the single executable (./windows.ts) gets those Node options as its `execArgv`, and
 *   bin/start-windows.cjs does to the environment in JavaScript what the wrapper's lines do (kept
 *   equal by test/release/launchers.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';

/** The wrapper's last line: `exec node <options> "$dir/start-bundle.cjs" <name> "$@"`. */
const EXEC_LINE = /\nexec node((?: --?[A-Za-z0-9][\w.=-]*)*) "\$dir\/start-bundle\.cjs" ([a-z0-9]+) "\$@"\n$/;

export interface CheckoutWrapper {
  /** Everything before the exec line. */
  readonly head: string;
  /** The Node options of the exec line. */
  readonly nodeOptions: readonly string[];
}

/** bin/terraform-provider-<name>, split at its exec line. */
export function checkoutWrapper(name: string): CheckoutWrapper {
  const file = join(REPO_ROOT, 'bin', `terraform-provider-${name}`);
  const text = readFileSync(file, 'utf8');
  const exec = EXEC_LINE.exec(text);
  if (!exec || exec[2] !== name) {
    throw new Error(
      `bin/terraform-provider-${name} no longer ends with \`exec node [options] "$dir/start-bundle.cjs" ${name} "$@"\`: ` +
        'update scripts/release/launchers.ts',
    );
  }
  return { head: text.slice(0, exec.index + 1), nodeOptions: exec[1]!.split(' ').filter(Boolean) };
}

/** The Node options every provider starts with; the Windows executable, shared by all, takes them. */
export function launcherNodeOptions(names: readonly string[]): readonly string[] {
  const [first, ...others] = names.map((name) => ({ name, options: checkoutWrapper(name).nodeOptions }));
  for (const other of others) {
    if (other.options.join(' ') !== first!.options.join(' ')) {
      throw new Error(
        `bin/terraform-provider-${first!.name} and bin/terraform-provider-${other.name} start node with different ` +
          `options (${first!.options.join(' ')} / ${other.options.join(' ')}); the Windows executable serves both`,
      );
    }
  }
  return first!.options;
}

const shellOptions = (options: readonly string[]) => options.map((option) => ` ${option}`).join('');

/** The provider's /bin/sh launcher: the wrapper with the runtime beside it instead of `node` from PATH. */
export function providerLauncher(name: string): string {
  const { head, nodeOptions } = checkoutWrapper(name);
  return `${head}exec "$dir/runtime/node"${shellOptions(nodeOptions)} "$dir/bin/start-bundle.cjs" ${name} "$@"\n`;
}

/** The emulator's /bin/sh launcher: the wrapper's way of finding itself, then the runtime on the emulator's bundle. */
export function emulatorLauncher(name: string): string {
  const { head } = checkoutWrapper(name);
  const end = head.indexOf("# Node's default trust store");
  const selfLocation = end < 0 ? '' : head.slice(0, end);
  if (!selfLocation.includes('dir=')) {
    throw new Error(`bin/terraform-provider-${name}: cannot find where it locates itself: update scripts/release`);
  }
  const comment = `# The ${name} emulator (README, "Emulators for your own tests"), run by the runtime beside it.\n`;
  const exec = `exec "$dir/runtime/node" "$dir/dist/bundle/emulator.cjs" ${name} "$@"\n`;
  return `${selfLocation.replace(/^# Terraform execs this wrapper[^\n]*\n/m, comment)}${exec}`;
}
