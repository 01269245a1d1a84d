/**
 * The executable's schema answers (GetProviderSchema, GetResourceIdentitySchemas), encoded when it
 * was built. They depend on the provider's definitions alone, and Terraform starts one provider
 * process per command only to ask for them, where encoding them cost ~35 ms of CPU (sec: ~100 KiB of
 * schema through protobuf's object conversion and encoder).
 *
 * Here, as tsc compiles it, the module holds none: run from dist/src (tests, tools) a provider encodes
 * its answers on the first call. In each executable's bundle scripts/bundle.mjs replaces this module by
 * one holding that provider's answers, encoded by packages/framework/src/server/provider-service.ts from the same
 * modules
 * the bundle holds; test/server/prebuilt-schemas.test.ts checks them against a fresh encoding.
 */

/** Base64 of each answer, or undefined when not built ahead. */
export const PREBUILT_SCHEMA_RESPONSES: { readonly schema: string; readonly identitySchemas: string } | undefined =
  undefined;
