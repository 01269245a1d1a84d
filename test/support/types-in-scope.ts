/**
 * The resource types a run covers: every one, unless `npm run test:quick` scopes the run to the types a
 * change reaches (LIFECYCLE_TYPES, comma-separated; scripts/test-quick.mjs, SCOPED_TESTS, names the
 * tests that read it).
 */
export const TYPES_IN_SCOPE: readonly string[] | undefined = process.env.LIFECYCLE_TYPES?.split(',')
  .map((type) => type.trim())
  .filter((type) => type !== '');

/** Whether `type` is one a run covers (every type, unless the run is scoped). */
export const inScope = (type: string): boolean => TYPES_IN_SCOPE === undefined || TYPES_IN_SCOPE.includes(type);
