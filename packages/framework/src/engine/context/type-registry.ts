/**
 * The kinds of type a provider declares (resource types, data sources, ephemeral resources, list
 * resources, actions), each kept by type name in one registry, with one error for a name the
 * provider does not declare: the same words from the engine and from the server, naming the
 * provider and the kind.
 */
import type { Diagnostics } from '../diagnostics/index.js';

export type TypeKind = 'resource type' | 'data source' | 'ephemeral resource' | 'list resource' | 'action';

/** Long enough for any real type name; a hostile one is cut so the message stays small. */
const SHOWN_NAME_CHARACTERS = 100;

/** `Unknown <kind>`: the summary of the error for an undeclared type name. */
export const unknownTypeSummary = (kind: TypeKind): string => `Unknown ${kind}`;

/** The detail of the error for an undeclared type name. */
export function unknownTypeDetail(provider: string, kind: TypeKind, typeName: string): string {
  const shown = typeName.length > SHOWN_NAME_CHARACTERS ? `${typeName.slice(0, SHOWN_NAME_CHARACTERS)}…` : typeName;
  return `The provider ${provider} has no ${kind} ${JSON.stringify(shown)}.`;
}

export class TypeRegistry<D extends { readonly typeName: string }> {
  private readonly byName = new Map<string, D>();

  constructor(
    private readonly provider: string,
    readonly kind: TypeKind,
    defs: Iterable<D>,
  ) {
    for (const d of defs) this.byName.set(d.typeName, d);
  }

  get(typeName: string): D | undefined {
    return this.byName.get(typeName);
  }

  has(typeName: string): boolean {
    return this.byName.has(typeName);
  }

  /** The declaration, or undefined after adding the unknown-type error to `diags`. */
  find(typeName: string, diags: Diagnostics): D | undefined {
    const d = this.byName.get(typeName);
    if (!d) this.reportUnknown(typeName, diags);
    return d;
  }

  /** Adds the unknown-type error for `typeName` to `diags`, and returns them. */
  reportUnknown(typeName: string, diags: Diagnostics): Diagnostics {
    return diags.error(unknownTypeSummary(this.kind), unknownTypeDetail(this.provider, this.kind, typeName));
  }

  /** What `pick` gives for each declaration (those it gives nothing for are left out), by type name. */
  collect<T>(pick: (d: D) => T | undefined): Map<string, T> {
    const out = new Map<string, T>();
    for (const [name, d] of this.byName) {
      const value = pick(d);
      if (value !== undefined) out.set(name, value);
    }
    return out;
  }
}
