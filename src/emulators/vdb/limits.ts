/**
 * How much one request may ask of the vdb emulator beyond the API's rules. Every count and size a
 * request can set has its bound in the .proto files, as a protovalidate rule held before any handler
 * runs (request-rules.ts; docs/api/vdb.md, "Field rules"); where the platform publishes none, the
 * bound there is one we chose and its comment says why. What is left here bounds the transport and
 * the answers.
 */
export const LIMITS = {
  /**
   * gRPC's default maximum message, which the platform keeps for these methods (its method option
   * `max_message_size` overrides it nowhere in the API the provider uses). Bigger requests are
   * refused with RESOURCE_EXHAUSTED before they are decoded.
   */
  messageBytes: 4 * 1024 * 1024,
} as const;

/** At most this many violations are listed in one answer; the rest are counted. */
export const MAX_REPORTED_VIOLATIONS = 20;

/** At most this many characters of a client's value are quoted back in a message. */
export const MAX_QUOTED_CHARACTERS = 64;
