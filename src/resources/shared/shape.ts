/**
 * The read-only twin of a block declaration: the object type a data source (or a computed-only
 * output) uses for the same shape. Attributes keep their types; nested blocks become lists of
 * objects, as an SDK-style provider exposes computed nested objects
 * (docs/decisions.md, "Nested objects are blocks": computed-only nested outputs are attributes of
 * type list(object(...))). Declaring a shape once keeps the resource and its data-source twin from
 * drifting apart.
 */
import { type AttrDef, type BlockDef, type Fields, t, type Typed } from '@keel/provider-framework';

/** The plain model of `computedShape(F)`: every attribute nullable, every block a list. */
export type ShapeModel<F extends Fields> = {
  [K in keyof F]: F[K] extends AttrDef<infer V>
    ? V | null
    : F[K] extends BlockDef<infer G>
      ? ShapeModel<G>[] | null
      : never;
};

export function computedShape<F extends Fields>(fields: F): Typed<ShapeModel<F>> {
  const shape: Record<string, Typed<unknown>> = {};
  for (const [name, def] of Object.entries(fields)) {
    shape[name] = def.kind === 'attr' ? def.type : t.list(computedShape(def.fields));
  }
  return t.object(shape) as unknown as Typed<ShapeModel<F>>;
}
