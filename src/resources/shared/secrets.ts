/**
 * Secrets in requests. A secret argument with a write-only twin reaches an operation as null when
 * it is withheld: given write-only, and not due to be sent again (its `_wo_version` did not
 * change). A request leaves a withheld secret out, and the platform keeps the one it has.
 */
export const sentSecret = (value: string | null): string | undefined => value ?? undefined;
