/**
 * What the msgpack encoder (msgpack-encode.ts) and decoder (msgpack-decode.ts) of cty values agree on:
 * the ext code and keys of a refined unknown (docs/protocol.md, "Refined unknowns") and how deep
 * values may nest.
 */

/** Deepest container nesting accepted by the decoders (and produced by the encoders). */
export const MAX_VALUE_DEPTH = 200;

/** ext type code of a refined unknown (docs/protocol.md, "Refined unknowns"). */
export const REFINED_UNKNOWN_EXT = 0x0c;

/** Refinement map keys (docs/protocol.md, "Refined unknowns"). */
export const enum RefinementKey {
  Nullness = 1,
  StringPrefix = 2,
  NumberMin = 3,
  NumberMax = 4,
  LengthMin = 5,
  LengthMax = 6,
}
