/**
 * One Pulumi schema, the bridge's: what `pulumi package get-schema terraform-provider <our executable>`
 * gives is compared with the model of it (test/pulumi-model) built as the dynamic bridge sees our
 * providers (no seed overrides, no defaults). Every difference must fall in one of the classes below,
 * each a known behaviour of the bridge the model leaves out on purpose; anything else is a finding.
 */
import { describeProvider } from '../pulumi-model/description.js';
import { buildPulumiSchema } from '../pulumi-model/schema.js';

/** A difference the model keeps on purpose, with why. */
interface DifferenceClass {
  readonly name: string;
  readonly why: string;
  /** Rewrites both sides' value at `path` (a JSON pointer-ish path) so this class no longer differs. */
  readonly normalize: (path: string[], value: unknown) => unknown;
}

/** `<span pulumi-lang-nodejs="`x`" …>`x_tf`</span>`: the bridge's per-language rendering of a name in prose. */
const LANGUAGE_SPAN = /<span pulumi-lang-nodejs="[^"]*"(?: pulumi-lang-[a-z]+="[^"]*")*>([\s\S]*?)<\/span>/g;

export const BRIDGE_DIFFERENCE_CLASSES: readonly DifferenceClass[] = [
  {
    name: 'language spans in descriptions',
    why: 'the bridge wraps names in prose in one <span> per SDK language; the text inside is ours',
    normalize: (path, value) =>
      path.at(-1) === 'description' && typeof value === 'string' ? value.replace(LANGUAGE_SPAN, '$1') : value,
  },
  {
    name: 'resource and function names in prose',
    why: 'the bridge rewrites a Terraform type name in a description (`sec_query`) to its Pulumi name (`sec.Query`); the model keeps ours',
    normalize: (path, value) =>
      path.at(-1) === 'description' && typeof value === 'string'
        ? value.replace(/`(?:sec|vdb)(?:\.[A-Za-z]+|_[a-z0-9_]+)`/g, '`<type>`')
        : value,
  },
  {
    name: 'package-level language and attribution blocks',
    why: 'the bridge adds SDK settings and an attribution line the model does not imitate; they carry nothing of ours',
    normalize: (path, value) =>
      path.length === 1 && (path[0] === 'language' || path[0] === 'attribution') ? undefined : value,
  },
  {
    name: "the bridge plugin's version",
    why: 'the model writes the published terraform-provider plugin release; CI installs the bridge module it builds under its own version',
    normalize: (path, value) =>
      path.join('/') === 'parameterization/baseProvider/version' ? '<plugin version>' : value,
  },
];

/** Walks both documents and lists every path where they still differ after the classes' rewrites. */
export function schemaDifferences(bridge: unknown, model: unknown): string[] {
  const out: string[] = [];
  const normalized = (path: string[], v: unknown) =>
    BRIDGE_DIFFERENCE_CLASSES.reduce((acc, c) => c.normalize(path, acc), v);
  const walk = (path: string[], a: unknown, b: unknown): void => {
    const x = normalized(path, a);
    const y = normalized(path, b);
    if (x === undefined && y === undefined) return;
    const isObject = (v: unknown) => v !== null && typeof v === 'object';
    if (isObject(x) && isObject(y) && Array.isArray(x) === Array.isArray(y)) {
      const keys = Array.isArray(x)
        ? [...Array(Math.max(x.length, (y as unknown[]).length)).keys()].map(String)
        : [...new Set([...Object.keys(x as object), ...Object.keys(y as object)])].sort();
      for (const k of keys) walk([...path, k], (x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y))
      out.push(
        `${path.join('/')}: bridge ${JSON.stringify(x)?.slice(0, 160)}, model ${JSON.stringify(y)?.slice(0, 160)}`,
      );
  };
  walk([], bridge, model);
  return out;
}

/** The model of what the dynamic bridge makes of `provider` run from `executable`. */
export async function dynamicBridgeModel(provider: 'sec' | 'vdb', executable: string): Promise<unknown> {
  return buildPulumiSchema(await describeProvider(provider, { mapping: 'dynamic' }), {
    includeDefaults: false,
    includeDeprecations: false,
    localProviderPath: executable,
  });
}
