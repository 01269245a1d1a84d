/**
 * The two provider settings that decide what a killed run can cost on the next runner, the same in
 * both providers (README, "Killed CI jobs and fresh runners";
 * docs/decisions.md, "Creates outlive their process"):
 *
 * - `untracked_objects`: what a plan does when a create matches an object that exists but that no
 *   state the run read tracks (what a job killed before Terraform saved its state leaves behind).
 * - `create_records_dir`: where the records of creates live, apart from Terraform's data directory, so
 *   that a cache or volume that outlives the runner can carry them to the next one.
 */
import type { CreateSettings, UntrackedObjects } from '../../engine/create-settings.js';
import { DiagnosticError } from '../../engine/diagnostics.js';
import { attr, validators } from '../../schema/define.js';
import { attrStep } from '../../schema/path.js';

const MODES: readonly UntrackedObjects[] = ['refuse', 'warn', 'adopt'];

/** The schema of the two settings, with the provider's environment variables named. */
export function createSettingFields(prefix: 'SEC' | 'VDB') {
  return {
    untracked_objects: attr.string({
      optional: true,
      validate: [validators.oneOf(...MODES)],
      description:
        'What a plan does when a resource it would create matches an object that already exists on the ' +
        "platform (it holds the new object's key and every setting the platform reports) but that no state " +
        'this run read tracks, as a CI job killed before its state was saved leaves behind. `refuse` ' +
        '(the default): the plan fails before anything is created and names each such object with the ' +
        '`import` block that adopts it. `warn`: the plan names them and the apply creates anyway. `adopt`: ' +
        'objects of these keys belong to this configuration alone, so the apply takes over one match for ' +
        'each create of that key instead of creating, and leaves any others alone. Environment: ' +
        `\`${prefix}_UNTRACKED_OBJECTS\`.`,
    }),
    create_records_dir: attr.string({
      optional: true,
      description:
        'Where the provider writes down each create before its request leaves, so that the next run can ' +
        'find what a killed run made. Default: `keel-creates/` in the data directory of the working ' +
        'directory. On CI, point it at a volume that outlives the runner, one directory per ' +
        'configuration and workspace. A relative path is taken from the working directory. ' +
        `Environment: \`${prefix}_CREATE_RECORDS_DIR\`.`,
    }),
  };
}

/** The settings as the provider block and the environment give them; the block wins. */
export function createSettingsOf(
  config: { untracked_objects: string | null; create_records_dir: string | null },
  env: NodeJS.ProcessEnv,
  prefix: 'SEC' | 'VDB',
): CreateSettings {
  const variable = `${prefix}_UNTRACKED_OBJECTS`;
  const given = config.untracked_objects ?? (env[variable]?.trim() || null);
  if (given !== null && !MODES.includes(given as UntrackedObjects))
    throw new DiagnosticError(
      `Invalid ${variable}`,
      `The ${variable} environment variable, which sets \`untracked_objects\`, must be one of ` +
        `${MODES.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(env[variable])}.`,
      [attrStep('untracked_objects')],
    );
  if (config.create_records_dir !== null && config.create_records_dir.trim() === '')
    throw new DiagnosticError(
      'Empty create_records_dir',
      '`create_records_dir` is set but empty: name a directory, or leave it out to keep the records in ' +
        'the data directory of the working directory.',
      [attrStep('create_records_dir')],
    );
  const dir = config.create_records_dir?.trim() || env[`${prefix}_CREATE_RECORDS_DIR`]?.trim() || undefined;
  return { untrackedObjects: (given as UntrackedObjects | null) ?? 'refuse', ...(dir ? { recordsDir: dir } : {}) };
}
