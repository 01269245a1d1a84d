/**
 * What a resource type declares to take over the state of another resource type (Terraform 1.8 and
 * later): a `moved { from = old_type.x  to = new_type.y }` block across types, e.g. from a deprecated
 * type to the one that replaces it, or from another provider's type for the same object. Terraform
 * asks the target's provider (MoveResourceState) to turn the source's stored state into a state of
 * the target; the engine serves that (engine/resources/resource-moves.ts) with the resource's `moveFrom` declarations.
 *
 * The provider may not know the source's schema (it may be another provider's), so a mover gets the
 * source's state as it is stored: its JSON object, and the schema version it was written with. It
 * returns the target's model, as `importState` does; the engine fills in the defaults, checks the
 * value against the target's schema and computes the identity from it. Terraform moves state on a
 * provider it has not configured, so a mover has no client and sends nothing: the read that follows
 * in the same plan fetches what the source's state did not hold.
 */
import type { Fields, ModelOf } from '../../schema/define.js';

/** The state of the source of a move, as Terraform stored it. */
export interface MoveSource {
  /**
   * The source's provider as the client names it: its address (`registry.terraform.io/acme/old`;
   * `registry.opentofu.org/…` from OpenTofu), or from some OpenTofu releases only its type (`old`).
   */
  readonly provider: string;
  /** The source's resource type, e.g. `old_thing`. */
  readonly typeName: string;
  /** The version of the source's schema the state was written with. */
  readonly schemaVersion: number;
  /** The source's state: its JSON object as stored (the source's attribute names, JSON values). */
  readonly state: Record<string, unknown>;
  /** The source's identity (Terraform 1.12 and later), its JSON object; null when it has none. */
  readonly identity: Record<string, unknown> | null;
}

/** One resource type whose state this one takes over. */
export interface StateMover<F extends Fields> {
  /** The source's resource type name. */
  readonly sourceType: string;
  /**
   * The source's provider: an address (`registry.terraform.io/acme/old`), or its last parts
   * (`acme/old`, `old`), which match any address ending so. Absent: this provider.
   */
  readonly sourceProvider?: string;
  /**
   * The target's model made from the source's state. Attributes left out are null (or their default);
   * the identity is computed from the result, which must name the object. Returns null for a state it
   * does not take (e.g. a schema version it does not know), and the engine says no mover took it; a
   * DiagnosticError it throws is shown as it is, any other error with its message.
   */
  move(source: MoveSource): Partial<ModelOf<F>> | null;
}
