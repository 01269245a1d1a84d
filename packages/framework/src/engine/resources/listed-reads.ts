/**
 * Reads by listing (docs/decisions.md, "Reads by listing"): a walk that reads many objects of a type
 * whose resource declares `readsByListing` reads them from one listing of the type (its pages) instead
 * of one call each. Chosen by facts, never by timing: the listing is taken once the walk has asked for
 * a second object of the type (of one scope: an account, a parent), or from the first when this state's
 * notes say it holds two or more of the type; it is taken at most once per type and scope in a process
 * (a process serves one walk), and never after this process changed an object of the type (Pulumi's one
 * process applies and reads). What the listing does not hold, or a listing that failed, is read on its
 * own as before, so `read` still says what is gone; a listing whose pages outnumber the objects the state
 * holds stops after its first page.
 */
import type { Fields, ModelOf } from '../../schema/define.js';
import type { OpContext, Partial2, ReadListing, ResourceDef } from '../contracts/index.js';
import type { EngineContext } from '../context/index.js';

type Model = Partial2<ModelOf<Fields>>;
type Listing<C> = ReadListing<Fields, C, unknown>;

/** The second object of a type a walk reads, or a state that holds two: one listing costs no more calls. */
const LISTING_FROM = 2;

export class ListedReads<C> {
  /** Reads asked per listing (a type, and its scope where it lists by one) in this process. */
  private readonly asked = new Map<string, number>();
  /** The items of each listing by id, or null where it failed. */
  private readonly listings = new Map<string, Promise<Map<string, unknown> | null>>();
  /** This state's notes' count of each type's objects, read once. */
  private readonly held = new Map<string, Promise<number>>();
  /** Types this process changed an object of: read alone from then on. */
  private readonly changed = new Set<string>();

  constructor(private readonly ctx: EngineContext<C>) {}

  /** The object `prior` names, as the type's `read` returns it: from the type's listing where one is taken. */
  async read(r: ResourceDef<Fields, C>, prior: ModelOf<Fields>, ctx: OpContext<C>): Promise<Model | null> {
    const listing = r.readsByListing as Listing<C> | undefined;
    const id = r.findCreated?.importId(prior as Model);
    if (!listing || !id || this.changed.has(r.typeName)) return r.read(prior, ctx);
    const scope = `${r.typeName}\0${listing.scope?.(prior, ctx) ?? ''}`;
    const asked = (this.asked.get(scope) ?? 0) + 1;
    this.asked.set(scope, asked);
    const listed = (await this.listingOf(r, listing, scope, asked, prior, ctx))?.get(id);
    return listed === undefined ? r.read(prior, ctx) : listing.read(listed, prior, ctx);
  }

  /** This process creates, changes or deletes an object of `typeName`: what a listing said of it is past. */
  changes(typeName: string): void {
    this.changed.add(typeName);
    for (const scope of this.listings.keys()) if (scope.startsWith(`${typeName}\0`)) this.listings.delete(scope);
  }

  private async listingOf(
    r: ResourceDef<Fields, C>,
    listing: Listing<C>,
    scope: string,
    asked: number,
    prior: ModelOf<Fields>,
    ctx: OpContext<C>,
  ): Promise<Map<string, unknown> | null | undefined> {
    const taken = this.listings.get(scope);
    if (taken) return taken;
    const held = await this.heldCount(r.typeName);
    // Asked again while this state's count was read: the first of them takes the listing.
    const since = this.listings.get(scope);
    if (since) return since;
    if (Math.max(asked, held) < LISTING_FROM || this.changed.has(r.typeName)) return undefined;
    const promise = this.take(r, listing, Math.max(held, LISTING_FROM), prior, ctx);
    this.listings.set(scope, promise);
    return promise;
  }

  private heldCount(typeName: string): Promise<number> {
    let count = this.held.get(typeName);
    if (!count) {
      count = this.ctx.journal.usable ? this.ctx.journal.heldCount(typeName).catch(() => 0) : Promise.resolve(0);
      this.held.set(typeName, count);
    }
    return count;
  }

  /** The listing's items by id; its first page alone where the whole would take more pages than `worth`. */
  private async take(
    r: ResourceDef<Fields, C>,
    listing: Listing<C>,
    worth: number,
    prior: ModelOf<Fields>,
    ctx: OpContext<C>,
  ): Promise<Map<string, unknown> | null> {
    const byId = new Map<string, unknown>();
    let pages = 0;
    try {
      for await (const page of listing.pages(ctx, prior)) {
        for (const item of page.objects) {
          const id = listing.idOf(item);
          if (id !== '') byId.set(id, item);
        }
        pages += 1;
        const perPage = page.objects.length;
        const whole = page.total !== undefined && perPage > 0 ? Math.ceil(page.total / perPage) : undefined;
        if (pages === 1 && whole !== undefined && whole > worth) break;
      }
      this.ctx.log.debug('read by listing', { tf_resource_type: r.typeName, objects: byId.size, pages });
      return byId;
    } catch (error) {
      // Each read asks on its own instead: what the platform says then is what the read reports.
      this.ctx.log.debug('the listing for reads failed', { tf_resource_type: r.typeName, error });
      return pages > 0 ? byId : null;
    }
  }
}
