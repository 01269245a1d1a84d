/**
 * An argument that names another object (`refersTo`) names one the platform holds: checked at plan,
 * for every such argument of every type, wherever its value is known (a literal id, an object made by
 * an earlier run). An id of an object this plan creates is unknown then and is judged by the apply, or,
 * where the configuration gives the id, known and taken as the object the run will make. The
 * provider says, per kind of object, how the platform lists what it holds (ProviderDef `references`);
 * listings are the catalogue's (catalogue-checks.ts): read once per process, read again before a
 * value is called missing.
 */
import type { Fields } from '../../schema/define.js';
import { attrStep, indexStep, type AttributePath } from '../../schema/path.js';
import type { CatalogueContext, ReferenceKinds } from '../contracts/index.js';

/**
 * The objects this process planned to make, by kind and id: Terraform plans a resource after those it
 * refers to, so an object a reference names is planned before the reference is checked.
 */
export class PlannedObjects {
  private readonly made = new Map<string, Set<string>>();

  /** Notes the object a create of `typeName` planned with `config` will make, for each kind it makes. */
  note(kinds: ReferenceKinds<unknown> | undefined, typeName: string, config: Readonly<Record<string, unknown>>) {
    for (const [kind, id] of madeObjects(kinds, typeName, config)) {
      const ids = this.made.get(kind) ?? this.made.set(kind, new Set()).get(kind)!;
      ids.add(id);
    }
  }

  /** Forgets the object `state` held once this process deleted it. */
  forget(kinds: ReferenceKinds<unknown> | undefined, typeName: string, state: Readonly<Record<string, unknown>>) {
    for (const [kind, id] of madeObjects(kinds, typeName, state)) this.made.get(kind)?.delete(id);
  }

  has(kind: string, id: string): boolean {
    return this.made.get(kind)?.has(id) ?? false;
  }
}

/** The kinds and ids of the object a resource of `typeName` with these values is. */
function* madeObjects(
  kinds: ReferenceKinds<unknown> | undefined,
  typeName: string,
  values: Readonly<Record<string, unknown>>,
): Generator<[string, string]> {
  for (const [kind, { madeBy }] of Object.entries(kinds ?? {})) {
    const attribute = madeBy?.[typeName];
    const id = attribute === undefined ? undefined : values[attribute];
    if (typeof id === 'string' && id !== '') yield [kind, id];
  }
}

interface Named {
  readonly kind: string;
  readonly values: readonly string[];
  readonly path: AttributePath;
}

/** Every known value of an argument with a listed `refersTo`, at any depth (a set's element: the set's path). */
function namedReferences(fields: Fields, model: Record<string, unknown>, path: AttributePath, out: Named[]): Named[] {
  for (const [name, def] of Object.entries(fields)) {
    const value = model[name];
    if (value === undefined || value === null) continue;
    const here = [...path, attrStep(name)];
    if (def.kind === 'attr') {
      const kind = def.options.refersTo;
      const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
      if (kind !== undefined && values.length > 0 && values.every((v) => typeof v === 'string'))
        out.push({ kind, values: values.filter((v) => v !== ''), path: here });
    } else if (Array.isArray(value)) {
      value.forEach((element, i) => {
        const at = def.nesting === 'set' ? here : [...here, indexStep(i)];
        if (element !== null && typeof element === 'object') namedReferences(def.fields, element, at, out);
      });
    } else if (typeof value === 'object') namedReferences(def.fields, value as Record<string, unknown>, here, out);
  }
  return out;
}

/** Names, at its path, every known value that names no object the platform holds. */
export async function checkReferences<C>(
  kinds: ReferenceKinds<C>,
  fields: Fields,
  config: Readonly<Record<string, unknown>>,
  ctx: CatalogueContext<C>,
): Promise<void> {
  for (const named of namedReferences(fields, config as Record<string, unknown>, [], [])) {
    const kind = kinds[named.kind];
    const scope = kind === undefined ? undefined : kind.scope === undefined ? '' : kind.scope(config, ctx.client);
    if (kind === undefined || scope === undefined || named.values.length === 0) continue;
    const read = (signal: AbortSignal) => kind.list(ctx.client, scope, signal);
    const key = `references: ${named.kind} ${scope}`;
    const planned = (v: string) => ctx.planned(named.kind, v);
    if (named.values.every(planned)) continue;
    let held = await ctx.listing(key, read);
    if (named.values.some((v) => !held.includes(v) && !planned(v)))
      held = await ctx.listing(key, read, { fresh: true });
    const where = scope === '' ? '' : ` in ${kind.scopeLabel ?? ''} ${scope}`;
    const missing = named.values.filter((v) => !held.includes(v) && !ctx.planned(named.kind, v));
    for (const value of new Set(missing)) {
      ctx.missing(
        'Names no existing object',
        `"${value}" is none of the ${kind.what} the platform holds${where}. It holds ${shown(likeFirst(held, value))}.`,
        named.path,
      );
    }
  }
}

const MAX_SHOWN = 10;

function shown(values: readonly string[]): string {
  if (values.length === 0) return 'none';
  const listed = values.slice(0, MAX_SHOWN).map((v) => `"${v}"`);
  return values.length > MAX_SHOWN ? `${listed.join(', ')} and ${values.length - MAX_SHOWN} more` : listed.join(', ');
}

/** The held values like `value` (the same but for case and edge spaces, or holding one another) first. */
function likeFirst(held: readonly string[], value: string): string[] {
  const plain = value.trim().toLowerCase();
  const like = (v: string) => {
    const other = v.toLowerCase();
    return plain !== '' && (other === plain || other.includes(plain) || plain.includes(other));
  };
  return [...held.filter(like), ...held.filter((v) => !like(v))];
}
