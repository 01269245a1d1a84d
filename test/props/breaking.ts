/**
 * Configurations that break one value each: from a valid configuration, every argument
 * whose validators name values they refuse (the forms of src/schema/forms.ts, and lists of them) gets
 * each such value, and, where the provider declares the platform's limits, every text gets one
 * character too many and every list of texts one element too many. Each must be refused at
 * validation, at the argument's path, before anything is sent.
 */
import type { AttrDef, Fields, PlatformLimits } from '../../packages/framework/src/schema/define.js';
import { isArgument, withValue, type Plain, type Step } from './configs.js';

export interface Breaking {
  /** The path the diagnostic must name, as the Terraform-side client writes it (a set element: the set). */
  readonly path: string;
  /** What was broken and how, for failure messages. */
  readonly what: string;
  readonly config: Plain;
}

/** Every breaking variant of `base` (a valid configuration of `fields`). */
export function breakingVariants(fields: Fields, base: Plain, limits: PlatformLimits | undefined): Breaking[] {
  const out: Breaking[] = [];
  walkArguments(fields, base, (steps, path, def) => {
    for (const [value, how] of breakingValues(def, limits))
      out.push({ path, what: `${path}: ${how}`, config: withValue(base, steps, value) });
  });
  return out;
}

/**
 * Visits every argument the configuration holds or could hold, but the provider's own settings
 * (blocks as configured), with its steps and its diagnostic path.
 */
export function walkArguments(
  fields: Fields,
  config: Plain,
  visit: (steps: Step[], path: string, def: AttrDef<unknown>) => void,
): void {
  walk(fields, config, [], '', false, visit);
}

function walk(
  fields: Fields,
  level: Plain,
  steps: Step[],
  path: string,
  inSet: boolean,
  visit: (steps: Step[], path: string, def: AttrDef<unknown>) => void,
): void {
  for (const [name, def] of Object.entries(fields)) {
    const here = inSet ? path : path === '' ? name : `${path}.${name}`;
    if (def.kind === 'attr') {
      if (isArgument(def) && !def.options.platformAssigned && !def.options.providerOnly)
        visit([...steps, name], here, def as AttrDef<unknown>);
      continue;
    }
    const elements = level[name];
    if (!Array.isArray(elements)) continue;
    elements.forEach((e, i) => {
      if (e === null || typeof e !== 'object') return;
      const set = inSet || def.nesting === 'set';
      walk(def.fields, e as Plain, [...steps, name, i], set ? (inSet ? path : here) : `${here}[${i}]`, set, visit);
    });
  }
}

/** The values that break an argument, each with how. */
function breakingValues(def: AttrDef<unknown>, limits: PlatformLimits | undefined): Array<[unknown, string]> {
  const out: Array<[unknown, string]> = [];
  for (const v of def.options.validate ?? []) {
    const refused = (v as { counterexamples?: readonly unknown[]; form?: string }).counterexamples ?? [];
    for (const c of refused)
      out.push([c, `${(v as { form?: string }).form ?? 'form'} counterexample ${JSON.stringify(c).slice(0, 60)}`]);
  }
  const kind = def.type.cty.kind;
  const characters = def.options.maxCharacters ?? limits?.characters;
  if (kind === 'string' && characters !== undefined)
    out.push(['x'.repeat(characters + 1), `${characters + 1} characters`]);
  if ((kind === 'list' || kind === 'set') && def.type.cty.element.kind === 'string' && limits) {
    out.push([Array.from({ length: limits.items + 1 }, (_, i) => `tf-element-${i}`), `${limits.items + 1} elements`]);
  }
  return out;
}
