/**
 * MoveResourceState (Terraform 1.8 and later): a `moved` block from a resource of another type, of
 * this provider or another, to one of ours. The target type's `moveFrom` (engine/contracts/move.ts) turns
 * the source's stored JSON into the target's model; the engine picks the mover, makes of its model a
 * state of the target's schema (defaults filled in, as for an import), checks it, and computes its
 * identity as for every other state (identity.ts). Nothing is sent: Terraform moves state on a
 * provider it has not configured, and reads the object at the new address right after.
 */
import { blockShapeProblem } from '../../schema/block.js';
import type { Fields, ModelOf } from '../../schema/define.js';
import { fromModel } from '../../schema/model.js';
import { formatPath } from '../../schema/path.js';
import type { ObjectValue } from '../../schema/value.js';
import type { ResourceDef } from '../contracts/index.js';
import { Diagnostics, diagnosticFromError } from '../diagnostics/index.js';
import type { EngineContext } from '../context/index.js';
import { identityOfState, missingAttributes, quoted } from './identity.js';
import type { MoveSource } from '../contracts/index.js';
import { withDefaults } from './resource-state.js';

/** A MoveResourceState request, as the server decodes it. */
export interface MoveRequest {
  /** The source's provider address as Terraform sends it. */
  readonly sourceProvider: string;
  readonly sourceType: string;
  readonly sourceSchemaVersion: number;
  /** The source's state as Terraform stored it: JSON. */
  readonly sourceState: string;
  /** The source's identity as Terraform stored it (JSON), or null when it has none. */
  readonly sourceIdentity: string | null;
  readonly targetType: string;
}

export interface MoveOutcome {
  state: ObjectValue | null;
  /**
   * The identity of the moved state; null on failure, and when what names the object is completed
   * by the configured provider (an attribute's `providerDefault`): the read that follows gives it.
   */
  identity: ObjectValue | null;
  diags: Diagnostics;
}

const SUMMARY = 'Cannot move resource state';
/** Long enough for any real name; a hostile one is cut so that the message stays small. */
const SHOWN_CHARACTERS = 100;
const importInstead = (target: string): string =>
  `Import the object into ${target} instead of moving it (an \`import\` block), and remove the old resource from ` +
  'the state.';
const shown = (name: string): string =>
  JSON.stringify(name.length > SHOWN_CHARACTERS ? `${name.slice(0, SHOWN_CHARACTERS)}…` : name);

export class ResourceMoves<C> {
  constructor(private readonly ctx: EngineContext<C>) {}

  /** Whether some resource type takes moved state: the server announces `move_resource_state` then. */
  get offered(): boolean {
    return this.ctx.def.resources.some((r) => (r.moveFrom?.length ?? 0) > 0);
  }

  moveResourceState(req: MoveRequest): MoveOutcome {
    const diags = new Diagnostics();
    const failed = (): MoveOutcome => ({ state: null, identity: null, diags });
    const r = this.ctx.resources.find(req.targetType, diags);
    if (!r) return failed();
    const source = `${shown(req.sourceType)} of the provider ${shown(req.sourceProvider)}`;
    const movers = (r.moveFrom ?? []).filter(
      (m) =>
        m.sourceType === req.sourceType && namesProvider(m.sourceProvider ?? this.ctx.def.name, req.sourceProvider),
    );
    if (movers.length === 0) return { ...failed(), diags: diags.error(SUMMARY, this.noMover(r, source)) };
    const given = parseSource(req, diags);
    if (!given) return failed();
    let model: object | null = null;
    for (const m of movers) {
      try {
        model = m.move(given);
      } catch (err) {
        diags.append([diagnosticFromError(`Cannot move ${req.sourceType} to ${r.typeName}`, err)]);
        return failed();
      }
      if (model !== null && model !== undefined) break;
    }
    if (model === null || model === undefined) {
      const detail =
        `The resource type ${r.typeName} does not take this state of the resource type ${source}, ` +
        `written with its schema version ${req.sourceSchemaVersion}. ${importInstead(r.typeName)}`;
      return { ...failed(), diags: diags.error(SUMMARY, detail) };
    }
    const invalid = (problem: string): MoveOutcome => {
      const detail =
        `The state of ${r.typeName} made from the state of ${req.sourceType} does not fit its schema: ${problem}. ` +
        'This is a bug in the provider; please report it.';
      return { ...failed(), diags: diags.error('Invalid moved state', detail) };
    };
    const problem = modelProblem(r.schema.fields, model);
    if (problem) return invalid(problem);
    let state: ObjectValue;
    try {
      state = withDefaults(r.schema.fields, fromModel(r.schema.fields, model as Partial<ModelOf<Fields>>, null));
    } catch (err) {
      return invalid(err instanceof Error ? err.message : String(err));
    }
    const shape = blockShapeProblem(r.schema.block, state, { itemCounts: false, noNullElements: true, known: true });
    if (shape) return invalid(`${shape.path.length > 0 ? `at ${formatPath(shape.path)}: ` : ''}${shape.message}`);
    const identity = this.identityOf(r, state, req.sourceType, diags);
    return diags.hasErrors ? failed() : { state, identity, diags };
  }

  /**
   * The identity of a moved state: an error when it lacks what names the object; null when it lacks
   * only what the configured provider's defaults give.
   */
  private identityOf(r: ResourceDef<Fields, C>, state: ObjectValue, from: string, diags: Diagnostics) {
    const def = r.identity;
    if (!def) return null;
    const identity = identityOfState(def, state, this.ctx.client);
    const missing = missingAttributes(identity);
    const lacking = missing.filter((n) => !(def.attributes[n]!.providerDefault && this.ctx.client === undefined));
    if (lacking.length > 0) {
      diags.error(
        SUMMARY,
        `The state of ${r.typeName} made from the state of ${from} lacks ${quoted(lacking)}, which name the object, ` +
          `so it names no object the provider can manage. ${importInstead(r.typeName)}`,
      );
      return null;
    }
    return missing.length > 0 ? null : identity;
  }

  /** Why no mover of `r` takes `source`: what it takes instead, if anything. */
  private noMover(r: ResourceDef<Fields, C>, source: string): string {
    const takes = (r.moveFrom ?? []).map((m) => `${m.sourceType} of ${m.sourceProvider ?? this.ctx.def.name}`);
    const instead = takes.length > 0 ? `it takes the state of ${takes.join(', ')} only` : 'it takes none';
    return (
      `The resource type ${r.typeName} of the provider ${this.ctx.def.name} takes no state moved from the resource ` +
      `type ${source}: ${instead}. ${importInstead(r.typeName)}`
    );
  }
}

/**
 * Whether a mover's `sourceProvider` (this provider's name when absent) names the provider Terraform
 * sent: the parts both give are the same (`acme/old` names `registry.terraform.io/acme/old`, and
 * OpenTofu's `old`).
 */
export function namesProvider(declared: string, sent: string): boolean {
  const d = declared.toLowerCase().split('/');
  const s = sent.toLowerCase().split('/');
  if (s[s.length - 1] === '') return false;
  for (let i = 1; i <= Math.min(d.length, s.length); i++) if (d[d.length - i] !== s[s.length - i]) return false;
  return true;
}

/** The source as a mover gets it, or undefined after an error saying what of it is not JSON. */
function parseSource(req: MoveRequest, diags: Diagnostics): MoveSource | undefined {
  const object = (json: string, what: string): Record<string, unknown> | undefined => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      diags.error(SUMMARY, `The ${what} of ${req.sourceType} is not valid JSON: ${(err as Error).message}.`);
      return undefined;
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    diags.error(SUMMARY, `The ${what} of ${req.sourceType} is not a JSON object.`);
    return undefined;
  };
  const state = object(req.sourceState, 'stored state');
  if (!state) return undefined;
  const identity = req.sourceIdentity === null ? null : object(req.sourceIdentity, 'stored identity');
  if (identity === undefined) return undefined;
  return {
    provider: req.sourceProvider,
    typeName: req.sourceType,
    schemaVersion: req.sourceSchemaVersion,
    state,
    identity,
  };
}

/**
 * What in a mover's model the schema has no place for: an object that is not one, a name the schema
 * does not declare, a value for a write-only attribute (never in a state). Types are checked by fromModel.
 */
function modelProblem(fields: Fields, model: unknown, where = ''): string | null {
  if (model === null || typeof model !== 'object' || Array.isArray(model))
    return `${where || 'the model'} is not an object`;
  for (const [name, value] of Object.entries(model)) {
    const path = where ? `${where}.${name}` : name;
    const def = fields[name];
    if (!def) return `${path} is no attribute or block of the schema`;
    if (value === null || value === undefined) continue;
    if (def.kind === 'attr') {
      if (def.options.writeOnly) return `${path} is write-only, so a state never holds it`;
    } else if (Array.isArray(value)) {
      for (const [i, e] of value.entries()) {
        const p = modelProblem(def.fields, e, `${path}[${i}]`);
        if (p) return p;
      }
    } else if (def.nesting === 'single' || def.nesting === 'group') {
      const p = modelProblem(def.fields, value, path);
      if (p) return p;
    }
  }
  return null;
}
