/**
 * cty values as MessagePack (DynamicValue.msgpack), byte-for-byte as go-cty's msgpack package writes
 * them (docs/protocol.md, "Values as MessagePack", the vectors in test/fixtures/conformance), and a
 * strict, bounded decoder.
 *
 * Hand-written rather than built on @msgpack/msgpack: the codec needs exact int64/uint64 handling,
 * ext 12 payloads, bin-typed dynamic types and type-driven decoding without an intermediate tree.
 *
 * The encoder is msgpack-encode.ts, the decoder msgpack-decode.ts, and what both agree on (refinement
 * keys, nesting depth) msgpack-format.ts; this module is what the rest of src/ imports.
 */

export { MAX_VALUE_DEPTH } from './msgpack-format.js';
export { encodeMsgpack } from './msgpack-encode.js';
export { decodeMsgpack, decodeMsgpackNoting, ValueDecodeError, type DecodedMsgpack } from './msgpack-decode.js';
