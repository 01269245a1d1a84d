/**
 * The identity and list declarations several resource families share (engine/contracts/: IdentityDef,
 * ListDef), so that each family states once what names its objects.
 */
import { type Fields, type IdentityDef, resourceSchema } from '@keel/provider-framework';

/** An object the platform names by one identifier, held in `id`. */
export function idIdentity<F extends Fields, C>(description: string): IdentityDef<F, C> {
  return { attributes: { id: { description, forImport: 'required' } } };
}

/** The filters of a list resource whose API lists every object of the type and offers no filter. */
export function noFilters(what: string) {
  return resourceSchema({}, { description: `Lists every ${what}; the API offers no filter.` });
}
