/**
 * Static validation of a configuration against the declarations, written once for every resource,
 * data source and provider, each problem reported at its attribute path:
 * - a required argument set to null is missing (Terraform itself only catches one left out); an
 *   optional one set empty is unset, like null (model.ts meansNull);
 * - validators, for known values (unknown ones are judged again at plan time, when the engine runs
 *   this again), and at plan time the rule of a platform-assigned value (`platformAssigned`), which
 *   needs the object the configuration is for;
 * - deprecated arguments and blocks that are used warn, naming their replacement;
 * - then the definition's own cross-argument check, on a model where unknown values are `undefined`.
 * At plan and apply time, values the stored object holds are not judged again: they were judged when
 * stored, or are the platform's own form, and `lifecycle { ignore_changes }` copies them into the
 * configuration Terraform sends (with `all`, every stored value but the computed-only ones).
 */
import { judged, type AttrDef, type BlockDef, type Fields, type PlatformLimits } from '../../schema/define.js';
import { type AttributePath, indexStep, keyStep } from '../../schema/path.js';
import type { ArgumentRule } from '../../schema/argument-rules.js';
import { Unknown, objectOrNull, type ObjectValue, type Value } from '../../schema/value.js';
import { hasNullElement, isWhollyKnown, valueEquals } from '../../schema/value-ops.js';
import { meansNull, toConfigModel, valueToExactPlain, valueToPlain } from '../../schema/model.js';
import { fieldList, fieldType, holdsOnlyStored, nestedAsBlock } from '../../schema/fields.js';
import type { CtyType } from '../../schema/cty-type.js';
import type { ConfigCheck } from '../contracts/index.js';
import { diagnosticFromError, type Diagnostics } from '../diagnostics/index.js';
import { nothingSaid, tooLarge, withinBody } from './platform-values.js';
import { twinProblems, withoutSecrets } from './secret-rules.js';
import { checkRule } from './argument-rules.js';
import { at, elementLabel, inBlock, shownName, type SetElement } from './set-elements.js';

/** What a configuration is checked against: a schema's fields and its definition's own check. */
export interface Checked {
  readonly schema: { readonly fields: Fields };
  readonly validate?: ConfigCheck<any> | undefined;
  /** Rules across its arguments (packages/framework/src/schema/argument-rules.ts). */
  readonly argumentRules?: readonly ArgumentRule[] | undefined;
}

/** What the client told about itself (ValidateResourceConfig's client capabilities). */
export interface ClientCapabilities {
  /** Terraform 1.11 and later: write-only arguments are supported. */
  readonly writeOnlyAttributesAllowed: boolean;
}

/** Where capabilities were not sent (plan and apply time): the validation before them judged them. */
const ANY_CLIENT: ClientCapabilities = { writeOnlyAttributesAllowed: true };

export interface CheckOptions {
  /** Titles what the definition's own check throws. */
  readonly summary?: string;
  readonly client?: ClientCapabilities;
  /**
   * The prior state at plan and apply time (null on create): what it holds is not judged again.
   * Left out at validation, where the object the configuration is for is not known yet.
   */
  readonly stored?: ObjectValue | null;
  /** The platform's limits on every value (ProviderDef `limits`). */
  readonly limits?: PlatformLimits | undefined;
}

/** Runs every check on `config`. */
export function checkConfig(def: Checked, config: ObjectValue, diags: Diagnostics, options: CheckOptions = {}): void {
  const { summary = 'Invalid configuration', client = ANY_CLIENT, limits } = options;
  const stored = options.stored ?? null;
  const sizeOk = limits === undefined || withinBody(config, limits, diags);
  const walk = new Validation(diags, client, limits, options.stored !== undefined);
  if (!walk.fields(def.schema.fields, config, [], undefined, stored) || !sizeOk) return;
  for (const rule of def.argumentRules ?? []) checkRule(rule, def.schema.fields, config, diags);
  if (!def.validate || holdsOnlyStored(def.schema.fields, config, stored)) return;
  try {
    def.validate(toConfigModel(def.schema.fields, config), diags);
  } catch (err) {
    diags.append([diagnosticFromError(summary, err)]);
  }
}

/**
 * `within`, when given, is the enclosing element of a set block (see SetElement).
 *
 * Returns false when no model should be built from the value: a required argument is null, or a
 * collection holds a null element (`["a", null]`: Terraform allows that, the models do not).
 */
export function validateFields(
  fields: Fields,
  value: ObjectValue | null,
  diags: Diagnostics,
  path: AttributePath = [],
  within?: SetElement,
  client: ClientCapabilities = ANY_CLIENT,
  stored: ObjectValue | null = null,
  limits?: PlatformLimits,
): boolean {
  return new Validation(diags, client, limits, true).fields(fields, value, path, within, stored);
}

/**
 * One walk of a configuration. Each check a value passes is a small step of its own, and what is
 * said about a problem is built only when there is one, so that the walk every value takes stays
 * small: it runs for every argument of every call, and large hot functions are costly to optimise.
 */
class Validation {
  constructor(
    private readonly diags: Diagnostics,
    private readonly client: ClientCapabilities,
    private readonly limits: PlatformLimits | undefined,
    /** Plan and apply time: `stored` is the object the configuration is for (none on create). */
    private readonly objectKnown: boolean,
  ) {}

  fields(
    fields: Fields,
    value: ObjectValue | null,
    path: AttributePath,
    within: SetElement | undefined,
    stored: ObjectValue | null,
  ): boolean {
    if (value === null || value instanceof Unknown) return true;
    const list = fieldList(fields);
    let modelSafe = true;
    for (let i = 0; i < list.length; i++) {
      const { name, def } = list[i]!;
      const v = value[name] ?? null;
      const held = stored === null ? null : (stored[name] ?? null);
      const safe =
        def.kind === 'block'
          ? this.block(def, name, v, held, path, within)
          : this.attribute(def, name, v, held, value, path, within, stored !== null);
      if (!safe) modelSafe = false;
    }
    return modelSafe;
  }

  private block(
    def: BlockDef<Fields>,
    name: string,
    v: Value,
    held: Value,
    path: AttributePath,
    within: SetElement | undefined,
  ): boolean {
    if (def.options.deprecated !== undefined && isUsedBlock(v)) this.deprecatedBlock(def, name, path, within);
    if (v === null || v instanceof Unknown) return true;
    const here = at(name, path, within);
    if (def.nesting === 'single' || def.nesting === 'group')
      return this.fields(def.fields, v as ObjectValue, here, inBlock(within, name), objectOrNull(held));
    if (def.nesting === 'map') return this.mapElements(def, v as ObjectValue, held, here, within);
    if (!Array.isArray(v)) return true;
    if (this.limits !== undefined && v.length > this.limits.items) {
      this.tooManyBlocks(name, v.length, here);
      return true;
    }
    const heldElements = Array.isArray(held) ? (held as ObjectValue[]) : NO_ELEMENTS;
    let modelSafe = true;
    for (let i = 0; i < v.length; i++) {
      const e = v[i] as ObjectValue;
      const safe =
        def.nesting === 'list'
          ? this.fields(
              def.fields,
              e,
              [...here, indexStep(i)],
              within && { ...within, block: `${shownName(name, within)}[${i}]` },
              heldElements[i] ?? null,
            )
          : this.setElement(def, name, e, heldElements, here, within);
      if (!safe) modelSafe = false;
    }
    return modelSafe;
  }

  /** The objects of a map nested attribute, by key (`ports["web"].number`). */
  private mapElements(
    def: BlockDef<Fields>,
    v: ObjectValue,
    held: Value,
    here: AttributePath,
    within: SetElement | undefined,
  ): boolean {
    const heldEntries = objectOrNull(held);
    let modelSafe = true;
    for (const key of Object.keys(v)) {
      const e = objectOrNull(v[key]!);
      const stored = heldEntries !== null && Object.hasOwn(heldEntries, key) ? objectOrNull(heldEntries[key]!) : null;
      if (e !== null && !this.fields(def.fields, e, [...here, keyStep(key)], within, stored)) modelSafe = false;
    }
    return modelSafe;
  }

  /** An element of a set block: a set element is its whole value, so one the stored set holds is the stored one. */
  private setElement(
    def: BlockDef<Fields>,
    name: string,
    e: ObjectValue,
    heldElements: readonly ObjectValue[],
    here: AttributePath,
    within: SetElement | undefined,
  ): boolean {
    if (heldElements.length > 0) {
      const elementType = (fieldType(def) as Extract<CtyType, { kind: 'set' }>).element;
      for (const h of heldElements) if (valueEquals(elementType, e, h)) return true;
    }
    const block = shownName(name, within);
    const element: SetElement = { path: here, block, label: elementLabel(block, def.fields, e, within) };
    return this.fields(def.fields, e, here, element, null);
  }

  private attribute(
    def: AttrDef<unknown>,
    name: string,
    v: Value,
    held: Value,
    value: ObjectValue,
    path: AttributePath,
    within: SetElement | undefined,
    isStored: boolean,
  ): boolean {
    const o = def.options;
    if (o.writeOnlyTwin) twinProblems(name, o.writeOnlyTwin.required, value, this.diags, within?.path ?? path);
    if (o.writeOnly && v !== null && !this.client.writeOnlyAttributesAllowed) {
      this.writeOnlyUnsupported(def, name, path, within);
      return true;
    }
    if (v === null) {
      if (!o.required) return true;
      this.missing(name, path, within);
      return false;
    }
    if (isStored && valueEquals(def.type.cty, v, held)) return true;
    // An empty optional argument is unset (null ≡ empty): nothing to judge, as for null.
    if (meansNull(def, v)) return true;
    if (o.deprecated !== undefined)
      this.diags.warning(`Argument "${shownName(name, within)}" is deprecated`, o.deprecated, at(name, path, within));
    if (v instanceof Unknown) return true;
    // The object's own value was accepted above; any other waits for the plan, which knows the object.
    if (o.platformAssigned) {
      if (this.objectKnown) this.notTheObjects(name, v, held, path, within);
      return true;
    }
    if (hasNullElement(def.type.cty, v)) {
      this.invalidValue(
        name,
        'The value must not contain null elements; remove them or use a placeholder value.',
        path,
        within,
      );
      return false;
    }
    if (isWhollyKnown(def.type.cty, v)) this.knownValue(def, name, v, path, within);
    // A nested attribute's inner attributes are judged as a block's are: `settings.retries`, `rules[1].port`.
    const nested = nestedAsBlock(def);
    return nested === undefined || this.block(nested, name, v, held, path, within);
  }

  /** The checks of a wholly known value: what the platforms refuse, then the attribute's validators. */
  private knownValue(
    def: AttrDef<unknown>,
    name: string,
    v: Value,
    path: AttributePath,
    within: SetElement | undefined,
  ): void {
    const o = def.options;
    const plain = valueToPlain(v);
    const said = nothingSaid(def, plain) ?? tooLarge(def.type.cty, plain, o.maxCharacters, this.limits);
    if (said) {
      this.invalidValue(name, `The value ${o.sensitive ? withoutSecrets(said, plain) : said}.`, path, within);
      return;
    }
    const validate = o.validate;
    if (!validate) return;
    // Numbers exact: a 17-digit number is judged, and shown, as written, not as the float64 nearest it.
    const exact = valueToExactPlain(v);
    for (const validator of validate) {
      const problem = judged(validator, exact);
      if (problem)
        this.invalidValue(name, `The value ${o.sensitive ? withoutSecrets(problem, plain) : problem}.`, path, within);
    }
  }

  // What is said about a problem: built only when there is one.

  private deprecatedBlock(def: BlockDef<Fields>, name: string, path: AttributePath, within: SetElement | undefined) {
    this.diags.warning(
      `Block "${shownName(name, within)}" is deprecated`,
      def.options.deprecated,
      at(name, path, within),
    );
  }

  private tooManyBlocks(name: string, count: number, here: AttributePath): void {
    this.diags.error(
      `Too many "${name}" blocks`,
      `The platform takes at most ${this.limits!.items} \`${name}\` blocks in one object; the configuration has ` +
        `${count}.`,
      here,
    );
  }

  private writeOnlyUnsupported(
    def: AttrDef<unknown>,
    name: string,
    path: AttributePath,
    within: SetElement | undefined,
  ) {
    this.diags.error(
      'Write-only argument not supported',
      `\`${name}\` is write-only, which needs Terraform 1.11 or OpenTofu 1.11 or later; this client does not ` +
        `support write-only arguments. Use \`${def.options.twinOf ?? name}\` instead.`,
      at(name, path, within),
    );
  }

  private notTheObjects(name: string, v: Value, held: Value, path: AttributePath, within: SetElement | undefined) {
    const shown = shownName(name, within);
    const detail =
      held === null
        ? `The platform assigns \`${shown}\` when it creates the object, so a configuration cannot choose it; ` +
          `remove \`${shown}\` from the configuration. (A configuration may repeat an existing object's own ` +
          `\`${shown}\`, as the code \`pulumi import\` prints does.)`
        : `This object's \`${shown}\` is ${JSON.stringify(valueToPlain(held))}, which the platform assigned; the ` +
          `configuration says ${JSON.stringify(valueToPlain(v))}. Remove \`${shown}\` from the configuration, or set ` +
          "it to the object's.";
    this.invalid(`Invalid attribute "${shown}"`, detail, name, path, within);
  }

  private missing(name: string, path: AttributePath, within: SetElement | undefined): void {
    this.invalid(
      'Missing configuration for required argument',
      `The argument "${shownName(name, within)}" is required, but the configuration sets it to null. Give it a value.`,
      name,
      path,
      within,
    );
  }

  private invalidValue(name: string, detail: string, path: AttributePath, within: SetElement | undefined): void {
    this.invalid(`Invalid value for "${shownName(name, within)}"`, detail, name, path, within);
  }

  /** An error about an argument; inside a set element, the detail names the element. */
  private invalid(summary: string, detail: string, name: string, path: AttributePath, within: SetElement | undefined) {
    this.diags.error(summary, within ? `In ${within.label}: ${detail}` : detail, at(name, path, within));
  }
}

const NO_ELEMENTS: readonly ObjectValue[] = [];

/** Whether a block is written in the configuration (a deprecated one warns then). */
const isUsedBlock = (v: Value): boolean => v instanceof Unknown || (Array.isArray(v) ? v.length > 0 : v !== null);
