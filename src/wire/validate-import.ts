/**
 * The one import the vdb .proto files take from outside this repository: protovalidate's
 * "buf/validate/validate.proto", whose definitions `@bufbuild/protovalidate` carries (vdb-rules.ts
 * turns the annotations into its rule messages). The parser is told it is loaded already.
 */
import protobuf from 'protobufjs';

export const VALIDATE_IMPORT = 'buf/validate/validate.proto';

/** A protobufjs root that takes the validate import as loaded, and resolves every other with `resolve`. */
export function rootWithValidateImport(resolve: (origin: string, target: string) => string): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => (target === VALIDATE_IMPORT ? VALIDATE_IMPORT : resolve(origin, target));
  root.files.push(VALIDATE_IMPORT);
  return root;
}

/**
 * A root's JSON without the `buf.validate` options: the codecs' descriptor (the client never reads
 * the rules, and protobufjs' flattened form of them would lose their lists).
 */
export function descriptorWithoutRules(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(descriptorWithoutRules);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'options') out[key] = descriptorWithoutRules(value);
    else {
      const kept = Object.entries(value as object).filter(([name]) => !name.startsWith('(buf.validate.'));
      if (kept.length > 0) out.options = Object.fromEntries(kept);
    }
  }
  return out;
}
