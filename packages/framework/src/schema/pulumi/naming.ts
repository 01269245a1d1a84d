/**
 * Token and property naming as pulumi-terraform-bridge does it for a dynamically bridged provider
 * (docs/protocol.md, "Names and tokens"). Sources, in pulumi/pulumi-terraform-bridge:
 *
 * - `dynamic/info.go`: package name = provider name; resource prefix inferred from the first `_`
 *   segment shared by all resource types (`inferResourcePrefix`), else the provider name
 *   (`Provider.GetResourcePrefix`); tokens from `tokens.SingleModule(prefix, "index", MakeStandard(pkg))`
 *   wrapped in `tokens.WithCaseInsensitiveDedup`; `SetAutonaming(255, "-")`.
 * - `pkg/tfbridge/tokens/{known_modules,tokens,case_insensitive_dedup}.go`: prefix cut with
 *   `strings.CutPrefix(tfToken, prefix)` (the prefix has no trailing `_`), camel-casing around `_` and `-`
 *   (pulumi's `cgstrings.ModifyStringAroundDelimeter`), a leading digit spelled out, `get` for data
 *   sources, `V2`, `V3`… suffixes for case-insensitive collisions (in sorted Terraform-name order).
 * - `pkg/tfbridge/tokens/fixups.go`: `id` that is not a computed-only string is renamed to the first free
 *   of `<resource>_id`, `<provider>_<resource>_id`, `resource_id`, `<provider>_id`; `urn` →
 *   `<provider>_urn`; `pulumi` → `pulumi_info`; a resource that would be called `Provider` is renamed.
 * - `pkg/tfbridge/internal/naming/naming.go` (`TerraformToPulumiNameV2`): list/set attributes and blocks
 *   whose MaxItems is not 1 are pluralized with pulumi/inflector unless the plural is another field of the
 *   same block; snake_case → camelCase keeping leading underscores and one trailing underscore.
 */
import { pluralize } from './inflector.js';

/** What the name rules need to know about a sibling field. */
export interface FieldShape {
  /** The field is a list or set (attribute type or LIST/SET block nesting). */
  readonly collection: boolean;
  /** Block `max_items` (attributes always report 0). */
  readonly maxItems: number;
}

/** Per-field overrides, like `SchemaInfo.Name` / `SchemaInfo.MaxItemsOne`. */
export interface FieldOverride {
  readonly name?: string;
  readonly maxItemsOne?: boolean;
}

/**
 * `TerraformToPulumiNameV2(name, sch, ps)`: the Pulumi property name of field `name` inside a block whose
 * fields are `siblings` (Terraform names → shapes). Pass no siblings for plain camel-casing.
 */
export function terraformToPulumiName(
  name: string,
  siblings?: ReadonlyMap<string, FieldShape>,
  overrides?: ReadonlyMap<string, FieldOverride>,
  upper = false,
): string {
  const info = overrides?.get(name);
  if (info?.name) return info.name;

  if (siblings) {
    const shape = siblings.get(name);
    const tryPluralize =
      shape?.collection && (info?.maxItemsOne !== undefined ? !info.maxItemsOne : shape.maxItems !== 1);
    if (tryPluralize) {
      const candidate = pluralize(name);
      const conflict = siblings.has(candidate);
      const candidateInfo = overrides?.get(candidate);
      const conflictSafe = candidateInfo !== undefined && !!candidateInfo.name && candidateInfo.name !== candidate;
      if (!conflict || conflictSafe) name = candidate;
    }
  }
  return camelCaseTerraformName(name, upper);
}

/** The casing loop of `terraformToPulumiName`: `_x` → `X` once a non-underscore was seen. */
export function camelCaseTerraformName(name: string, upper = false): string {
  let result = '';
  let nextCap = false;
  let prev = '';
  let casingActivated = false;
  let i = 0;
  for (const c of name) {
    if (c === '_' && casingActivated) {
      nextCap = true;
      prev = c;
      i++;
      continue;
    }
    if (c !== '_' && !casingActivated) casingActivated = true;
    if (((i === 0 && upper) || nextCap) && c >= 'a' && c <= 'z') result += c.toUpperCase();
    else result += c;
    nextCap = false;
    prev = c;
    i++;
  }
  if (prev === '_') result += '_';
  return result;
}

/** pulumi `cgstrings.UppercaseFirst`. */
export function uppercaseFirst(s: string): string {
  if (s === '') return '';
  const [first, ...rest] = Array.from(s);
  return first!.toUpperCase() + rest.join('');
}

export function lowercaseFirst(s: string): string {
  if (s === '') return '';
  const [first, ...rest] = Array.from(s);
  return first!.toLowerCase() + rest.join('');
}

/** pulumi `cgstrings.ModifyStringAroundDelimeter(str, delim, UppercaseFirst)`. */
function modifyAroundDelimiter(str: string, delim: string): string {
  const i = str.indexOf(delim);
  if (i < 0) return str;
  const nextIdx = i + delim.length;
  if (nextIdx >= str.length) return str.slice(0, str.length - delim.length);
  const prev = str.slice(0, nextIdx - 1);
  let next = str.slice(nextIdx);
  if (next !== '') next = uppercaseFirst(next);
  return prev + modifyAroundDelimiter(next, delim);
}

/** tokens.camelCase: around `_`, then around `-`. */
export function tokenCamelCase(s: string): string {
  return modifyAroundDelimiter(modifyAroundDelimiter(s, '_'), '-');
}

/** tokens.upperCamelCase. */
export function tokenUpperCamelCase(s: string): string {
  return uppercaseFirst(tokenCamelCase(s));
}

const DIGIT_WORDS: Record<string, string> = {
  '0': 'Zero',
  '1': 'One',
  '2': 'Two',
  '3': 'Three',
  '4': 'Four',
  '5': 'Five',
  '6': 'Six',
  '7': 'Seven',
  '8': 'Eight',
  '9': 'Nine',
};

/** tokens.makeSafeTokenPart: `^[0-9].?` → digit word + upper-camel of the rest of the match. */
export function makeSafeTokenPart(part: string): string {
  return part.replace(/^[0-9].?/, (s) => {
    const w = DIGIT_WORDS[s[0]!];
    return w === undefined ? s : w + tokenUpperCamelCase(s.slice(1));
  });
}

/** tokens.MakeStandard(pkg)(module, name) → `pkg:module/lowerFirst(name):name`. */
export function makeStandardToken(pkg: string, module: string, name: string): string {
  if (name === '') throw new Error(`missing name for module "${module}"`);
  const safe = makeSafeTokenPart(name);
  return `${pkg}:${module}/${safe[0]!.toLowerCase()}${safe.slice(1)}:${safe}`;
}

/** The name part of a standard token (`pkg:index/fooBar:FooBar` → `FooBar`). */
export function tokenName(token: string): string {
  return token.slice(token.lastIndexOf(':') + 1);
}

/** dynamic/info.go inferResourcePrefix; '' when the resource names disagree (or there are none). */
export function inferResourcePrefix(resourceTypeNames: Iterable<string>): string {
  let candidate = '';
  for (const key of resourceTypeNames) {
    const parts = key.split('_');
    if (parts.length < 2) continue;
    if (candidate === '') {
      candidate = parts[0]!;
      continue;
    }
    if (candidate !== parts[0]) return '';
  }
  return candidate;
}

/** The module/name part that SingleModule computes for one Terraform type name. */
function strippedName(tfToken: string, prefix: string): string {
  if (!tfToken.startsWith(prefix)) throw new Error(`token '${tfToken}' missing package prefix '${prefix}'`);
  const t = tfToken.slice(prefix.length);
  return tokenUpperCamelCase(t === '' ? tfToken : t);
}

export interface TokenMapping {
  resources: Map<string, string>;
  dataSources: Map<string, string>;
}

/**
 * Tokens for every resource and data source, as `ComputeTokens` with the dynamic bridge's strategy
 * computes them (sorted Terraform names, case-insensitive de-duplication with `V<n>` suffixes, the
 * reserved `Provider` resource renamed).
 */
export function computeTokens(
  pkg: string,
  prefix: string,
  resources: Iterable<string>,
  dataSources: Iterable<string>,
): TokenMapping {
  const resourceTokens = new Map<string, string>();
  const dataSourceTokens = new Map<string, string>();
  const resourceNames = [...resources].sort();
  const dataSourceNames = [...dataSources].sort();

  const dedupe = () => {
    const nextVariant = new Map<string, number>();
    const key = (tok: string) => {
      const colon = tok.indexOf(':');
      const rest = tok.slice(colon + 1);
      const module = rest.slice(0, rest.lastIndexOf(':'));
      const namespace = module.includes('/') ? module.slice(0, module.lastIndexOf('/')) : '';
      return `${namespace.toLowerCase()}:${tokenName(tok).toLowerCase()}`;
    };
    return (tok: string): string => {
      const k = key(tok);
      const next = nextVariant.get(k);
      if (next === undefined) {
        nextVariant.set(k, 2);
        return tok;
      }
      for (let variant = next; ; variant++) {
        const candidate = makeStandardToken(pkg, 'index', `${tokenName(tok)}V${variant}`);
        const ck = key(candidate);
        if (!nextVariant.has(ck)) {
          nextVariant.set(k, variant + 1);
          nextVariant.set(ck, 2);
          return candidate;
        }
      }
    };
  };

  const uniqueResource = dedupe();
  for (const tf of resourceNames)
    resourceTokens.set(tf, uniqueResource(makeStandardToken(pkg, 'index', strippedName(tf, prefix))));

  // fixProviderResource: `<prefix>_provider` must not take the reserved `Provider` name.
  const providerResource = `${prefix}_provider`;
  const providerToken = makeStandardToken(pkg, 'index', strippedName(providerResource, prefix));
  if (resourceTokens.get(providerResource) === providerToken) {
    const candidates = [
      `${prefix}_${pkg}_provider`,
      `${prefix}_provider_resource`,
      `${prefix}_${pkg}_provider_resource`,
    ];
    const free = candidates.find((c) => !resourceTokens.has(c));
    if (!free) throw new Error(`no available provider resource rename, tried ${candidates.join(', ')}`);
    resourceTokens.set(providerResource, makeStandardToken(pkg, 'index', strippedName(free, prefix)));
  }

  const uniqueDataSource = dedupe();
  for (const tf of dataSourceNames) {
    dataSourceTokens.set(tf, uniqueDataSource(makeStandardToken(pkg, 'index', `get${strippedName(tf, prefix)}`)));
  }
  return { resources: resourceTokens, dataSources: dataSourceTokens };
}

/**
 * fixID: the Terraform name that the bridge exposes a resource's `id` under, or undefined when `id` stays
 * the Pulumi resource id (a computed-only string, or no `id` at all).
 */
export function renamedIdField(
  provider: string,
  prefix: string,
  tfType: string,
  id: { computed: boolean; optional: boolean; required: boolean; isString: boolean } | undefined,
  fieldNames: ReadonlySet<string>,
): string | undefined {
  if (!id) return undefined;
  if (id.computed && !id.optional && !id.required && id.isString) return undefined;
  let resourceName = tfType.startsWith(prefix) ? tfType.slice(prefix.length) : tfType;
  if (resourceName === '') resourceName = tfType;
  resourceName = resourceName.replace(/^_+/, '');
  const providerSnake = provider.replaceAll('-', '_');
  const candidates = [
    `${resourceName}_id`,
    `${providerSnake}_${resourceName}_id`,
    'resource_id',
    `${providerSnake}_id`,
  ];
  const free = candidates.find((c) => !fieldNames.has(c));
  if (!free) throw new Error(`${tfType}: no available new name for id, tried ${candidates.join(', ')}`);
  return free;
}

/**
 * The reserved top-level resource field names and the Terraform names the bridge exposes them under
 * (fixURN, fixPulumi). `id` is handled by renamedIdField.
 */
export function reservedFieldRename(
  provider: string,
  field: string,
  fieldNames: ReadonlySet<string>,
): string | undefined {
  const rename = field === 'urn' ? `${provider}_urn` : field === 'pulumi' ? 'pulumi_info' : undefined;
  if (rename === undefined) return undefined;
  if (fieldNames.has(rename)) throw new Error(`no available new name for '${field}', tried "${rename}"`);
  return rename;
}

/**
 * The nested type name segment for a property: `cases.Title(language.Und, cases.NoLower)` of the
 * (singularized, for lists and sets) Pulumi property name. Property names are identifiers, so this
 * upper-cases the first letter of each run of letters and digits.
 */
export function titleCase(name: string): string {
  let out = '';
  let atWordStart = true;
  for (const c of name) {
    const isWordChar = /[\p{L}\p{N}_']/u.test(c);
    out += atWordStart && isWordChar ? c.toUpperCase() : c;
    atWordStart = !isWordChar;
  }
  return out;
}
