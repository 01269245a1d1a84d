// Declaration of dist/src/wire/vdb-field-rules.js, which scripts/build-proto.mjs generates from the
// buf.validate annotations of proto/vdb (src/wire/vdb-rules.ts `rulesTable`).
import type { JsonObject } from '@bufbuild/protobuf';
import type { FieldShape } from './vdb-rules.js';

/** Each annotated field's rules, by its full name, as protovalidate's FieldRules in proto JSON. */
export declare const VDB_FIELD_RULES: Readonly<Record<string, JsonObject>>;
/** Each annotated message's rules (its CEL expressions), by its full name, as MessageRules in proto JSON. */
export declare const VDB_MESSAGE_RULES: Readonly<Record<string, JsonObject>>;
/** The values (name, number) of each enum field that has rules, by the field's full name. */
export declare const VDB_FIELD_ENUMS: Readonly<Record<string, readonly (readonly [string, number])[]>>;
/** The type of each field that has rules (`string`, `uint32`, `enum`, `message`), by its full name. */
export declare const VDB_FIELD_TYPES: Readonly<Record<string, string>>;
/** Every field of the vdb API, by its full name: its type, whether it repeats, whether its absence is told. */
export declare const VDB_FIELD_SHAPES: Readonly<Record<string, FieldShape>>;
