/**
 * The provider settings that decide whose objects a plan may refuse, create beside or take over, the
 * same in both providers (README, "Whose object is it"; docs/decisions.md, "Whose object is it"):
 *
 * - `untracked_objects`: what a create does when it matches an object that exists but that nothing
 *   says whose it is (no state whose records are kept here noted it, no record of a create made it): what a
 *   job killed before Terraform saved its state leaves behind, or another's made on purpose. `adopt`
 *   is retired (it took objects that another state may hold): accepted, with a warning, as `refuse`.
 * - `missing_references`: what a plan does when an argument names an object the platform does not hold
 *   yet (another configuration of a pipeline, or a step of this apply, may make it).
 * - `create_records_dir`: where the records of creates live, apart from Terraform's data directory, so
 *   that a volume that outlives the runner can carry them to the next one.
 */
import {
  attr,
  attrStep,
  type CreateSettings,
  DiagnosticError,
  type MissingReferences,
  type UntrackedObjects,
  validators,
} from '@keel/provider-framework';

const MODES: readonly UntrackedObjects[] = ['refuse', 'create', 'warn', 'adopt'];
const REFERENCE_MODES: readonly MissingReferences[] = ['warn', 'refuse'];

/** Why the upstream providers have none of these settings: they are how this one decides whose an object is. */
const OURS =
  'They say how this provider decides whose an object is, on facts that stay true; the upstream provider has ' +
  'no such settings, and without them this one does what their defaults say.';

/** The schema of the settings, with the provider's environment variables named. */
export function createSettingFields(prefix: 'SEC' | 'VDB') {
  return {
    untracked_objects: attr.string({
      optional: true,
      addedOverUpstream: OURS,
      validate: [validators.oneOf(...MODES)],
      description:
        'What a create does when it matches an object that already exists on the platform (it holds the ' +
        "new object's key and every setting the platform reports) and nothing says whose it is: no state whose " +
        'records are kept here (another workspace, backend key or stack) noted it as its own, and no record of ' +
        "a create made it (another state's objects are never refused, adopted or changed). Such an " +
        "object may be what a CI job killed before its state was saved left behind, or another configuration's " +
        "or person's. The plan warns, naming each (it cannot know yet whether its walk shows the object at " +
        'another address of its state); the apply decides before it sends the create. `refuse` (the default): ' +
        'the apply sends nothing for that create and fails, naming each such object, every likely cause and ' +
        'the way out for each. `create`: the apply makes a new object beside it, and this resource remembers ' +
        'what it was created beside. `warn`: as `create`, where the client shows warnings (Pulumi does not: ' +
        'there it refuses). `adopt` is retired: it took over objects that another state may hold, and now ' +
        'refuses as `refuse` does, with a warning. Environment: ' +
        `\`${prefix}_UNTRACKED_OBJECTS\`.`,
    }),
    missing_references: attr.string({
      optional: true,
      addedOverUpstream: OURS,
      validate: [validators.oneOf(...REFERENCE_MODES)],
      description:
        'What a plan does when an argument names an object the platform does not hold, such as one another ' +
        'configuration of a pipeline, or a step of the same apply, makes first. `warn` (the default): the ' +
        'plan warns, and the check just before the create or update decides (it sends nothing while the ' +
        'object is still missing). `refuse`: the plan fails. A destroy is never refused by it. Environment: ' +
        `\`${prefix}_MISSING_REFERENCES\`.`,
    }),
    create_records_dir: attr.string({
      optional: true,
      addedOverUpstream: OURS,
      description:
        'Where the provider writes down each create before its request leaves, so that the next run can ' +
        'find what a killed run of the same state made, and which objects each state holds (a state is the ' +
        'backend the working directory was initialised with, with its key or address, and the workspace). ' +
        'Default: ' +
        '`keel-creates/` in the data directory of the working directory. On a self-hosted CI runner, point ' +
        'it at a volume that outlives the runner; configurations and states sharing it are kept apart. A ' +
        'relative path is taken ' +
        `from the working directory. Environment: \`${prefix}_CREATE_RECORDS_DIR\`.`,
    }),
  };
}

/** The settings as the provider block and the environment give them; the block wins. */
export function createSettingsOf(
  config: { untracked_objects: string | null; missing_references: string | null; create_records_dir: string | null },
  env: NodeJS.ProcessEnv,
  prefix: 'SEC' | 'VDB',
): CreateSettings {
  const untracked = setting(config.untracked_objects, env, prefix, 'untracked_objects', MODES) ?? 'refuse';
  const references = setting(config.missing_references, env, prefix, 'missing_references', REFERENCE_MODES);
  if (config.create_records_dir !== null && config.create_records_dir.trim() === '')
    throw new DiagnosticError(
      'Empty create_records_dir',
      '`create_records_dir` is set but empty: name a directory, or leave it out to keep the records in ' +
        'the data directory of the working directory.',
      [attrStep('create_records_dir')],
    );
  const dir = config.create_records_dir?.trim() || env[`${prefix}_CREATE_RECORDS_DIR`]?.trim() || undefined;
  return {
    untrackedObjects: untracked,
    ...(references ? { missingReferences: references } : {}),
    ...(dir ? { recordsDir: dir } : {}),
  };
}

/** A setting from the block, else its variable (checked against the values it takes). */
function setting<T extends string>(
  given: string | null,
  env: NodeJS.ProcessEnv,
  prefix: string,
  name: string,
  values: readonly T[],
): T | undefined {
  const variable = `${prefix}_${name.toUpperCase()}`;
  const value = given ?? (env[variable]?.trim() || null);
  if (value === null) return undefined;
  if (!values.includes(value as T))
    throw new DiagnosticError(
      `Invalid ${variable}`,
      `The ${variable} environment variable, which sets \`${name}\`, must be one of ` +
        `${values.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(env[variable])}.`,
      [attrStep(name)],
    );
  return value as T;
}
