/**
 * The API's messages as the client hands them over and takes them, from the .proto files alone
 * (src/wire/vdb-messages.ts, written by scripts/vdb-types.mjs as the project builds): a field added to
 * a .proto is in these types with no second declaration.
 */
import type { VdbAnswers, VdbSends } from '../../wire/vdb-messages.js';

export { VDB_ENUMS, type VdbDuration, type VdbEnum, type VdbJson } from '../../wire/vdb-messages.js';

/** `Keys` of `T`, always there and never undefined. */
type Carrying<T, Keys extends keyof T> = T & { readonly [K in Keys]-?: Exclude<T[K], undefined> };

/**
 * Message `M` as a decoded answer holds it, with the message fields in `Keys` always there: those the
 * client checks every answer carries (`one`, `many` and `items` in ./calls.ts refuse an answer without them).
 */
export type Answered<M extends keyof VdbAnswers, Keys extends keyof VdbAnswers[M] = never> = Carrying<
  VdbAnswers[M],
  Keys
>;

/** Message `M` as a caller sends it, with `Keys` required of the caller. */
export type Sent<M extends keyof VdbSends, Keys extends keyof VdbSends[M] = never> = Carrying<VdbSends[M], Keys>;
