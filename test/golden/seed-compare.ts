/**
 * Compares a generated Pulumi package schema with a parsed seed document and lists every difference
 * as one readable line, `<Subject>.<field>: <what differs>`. Subjects are resource names
 * (AgentAccessToken), nested type names, function names (getUserProfile), `config` and `provider`.
 *
 * What the seed's marks are checked against:
 * - resource fields: "Output(s)" → an output only, `*` ⇔ in `required`; "Input and output" → both,
 *   `*` ⇔ in `required`, not a required input; otherwise an input, `*` ⇔ in `requiredInputs`;
 *   "always present in the output" → in `required`. Fields not in the seed are reported unless the
 *   seed says some are not shown.
 * - nested types: `*` ⇔ in `required` for types reachable from inputs; for output-only types
 *   (not reachable from any input) `*` ⇔ in the required outputs (`language.nodejs.requiredOutputs`
 *   when present, else `required`); "always present in output" ⇔ in the required outputs.
 * - types, `secret` (absent in the seed = not secret), `default`, deprecation everywhere (resources
 *   too); inline
 *   objects (`{a*, b}`) against the referenced nested type.
 * - provider: each configuration variable is a provider input; the provider outputs the seed lists are
 *   the string-typed provider properties (Pulumi SDKs expose only string outputs on providers).
 */
import type {
  PulumiPackageSchema,
  PulumiObjectTypeSpec,
  PulumiPropertySpec,
  PulumiTypeSpec,
} from '../pulumi-model/schema.js';
import { formatSeedType, type ParsedSeed, type SeedField, type SeedType } from './seed-parser.js';
import { globToRegExp } from '../support/glob.js';

export interface AllowedDifference {
  /** The difference line, exactly, or a glob (`*` matches anything), e.g. `AlertChannel*.alertChannel*Id: *also an input*`. */
  what: string;
  reason: string;
}

const TWINS_REASON =
  'docs/decisions.md, "Write-only twins": every sensitive input `<name>` also has `<name>_wo` and `<name>_wo_version`; exactly one of `<name>` and `<name>_wo` is required at validate time, so `<name>` itself becomes optional.';

/** The write-only twins of the secret inputs named (Pulumi names), as differences from the seed. */
export function writeOnlyTwinAllowances(secrets: readonly string[]): AllowedDifference[] {
  return [
    { what: '*.*Wo: not in the seed', reason: TWINS_REASON },
    { what: '*.*WoVersion: not in the seed', reason: TWINS_REASON },
    ...secrets.map((name) => ({ what: `*.${name}: is not *, the seed says required`, reason: TWINS_REASON })),
  ];
}

export interface CompareOptions {
  /** Only these subjects (resource, type or function names, `config`, `provider`). */
  only?: string[];
  allowedDifferences: AllowedDifference[];
  /** Also report allowed differences that matched nothing (keeps allow-lists tight). */
  reportUnusedAllowances?: boolean;
}

/** Every difference between the schema and the seed that is not allowed. */
export function compareWithSeed(schema: PulumiPackageSchema, seed: ParsedSeed, options: CompareOptions): string[] {
  const all = allDifferences(schema, seed, options.only);
  const allowed = options.allowedDifferences.map((a) => ({ ...a, re: globToRegExp(a.what, 's'), used: false }));
  const out: string[] = [];
  for (const d of all) {
    const a = allowed.find((x) => x.re.test(d));
    if (a) a.used = true;
    else out.push(d);
  }
  if (options.reportUnusedAllowances) {
    for (const a of allowed) if (!a.used) out.push(`allowed difference matched nothing: ${a.what}`);
  }
  return out;
}

/** All differences, before allowances. */
export function allDifferences(schema: PulumiPackageSchema, seed: ParsedSeed, only?: string[]): string[] {
  const want = (subject: string) => !only || only.includes(subject);
  const diffs: string[] = [];
  const pkg = seed.packageName;
  const inputReachable = reachableFromInputs(schema);

  if (schema.name !== pkg) diffs.push(`package: name is ${schema.name}, the seed says ${pkg}`);
  if (seed.version && schema.version !== seed.version)
    diffs.push(`package: version is ${schema.version}, the seed says ${seed.version}`);

  const fieldChecks = (
    where: string,
    f: SeedField,
    prop: PulumiPropertySpec | undefined,
    defaultsOn: PulumiPropertySpec | undefined,
  ) => {
    if (!prop) return;
    compareType(where, f.type, f.typeImplied, prop, schema, inputReachable, diffs);
    if (f.secret && !prop.secret) diffs.push(`${where}: is not secret, the seed flags it secret`);
    if (!f.secret && prop.secret)
      diffs.push(
        `${where}: is secret, the seed does not flag it${f.notSecret ? ' (it says: not flagged secret)' : ''}`,
      );
    const d = defaultsOn?.default;
    if (f.default !== undefined && d !== f.default) {
      diffs.push(
        `${where}: default is ${d === undefined ? 'absent' : JSON.stringify(d)}, the seed says ${JSON.stringify(f.default)}`,
      );
    }
    if (f.default === undefined && d !== undefined)
      diffs.push(`${where}: has default ${JSON.stringify(d)}, the seed states none`);
    if (f.deprecated && !prop.deprecationMessage) diffs.push(`${where}: is not deprecated, the seed says deprecated`);
    if (!f.deprecated && prop.deprecationMessage) diffs.push(`${where}: is deprecated, the seed does not say so`);
  };

  // Resources.
  for (const r of Object.values(seed.resources)) {
    if (!want(r.name)) continue;
    const res = schema.resources[r.token];
    if (!res) {
      diffs.push(`${r.name}: resource ${r.token} is not in the schema`);
      continue;
    }
    if (r.deprecated && !res.deprecationMessage) diffs.push(`${r.name}: is not deprecated, the seed says deprecated`);
    if (!r.deprecated && res.deprecationMessage) diffs.push(`${r.name}: is deprecated, the seed does not say so`);
    const required = new Set(res.required ?? []);
    const requiredInputs = new Set(res.requiredInputs ?? []);
    for (const f of r.fields) {
      const where = `${r.name}.${f.name}`;
      const out = res.properties?.[f.name];
      const inp = res.inputProperties?.[f.name];
      if (!out && !inp) {
        diffs.push(`${where}: not in the schema`);
        continue;
      }
      if (inp && !out) diffs.push(`${where}: is an input but not an output`);
      switch (f.role) {
        case 'output':
          if (inp) diffs.push(`${where}: is also an input, the seed says output only`);
          if (f.required !== required.has(f.name))
            diffs.push(
              `${where}: ${required.has(f.name) ? 'is' : 'is not'} a required output, the seed says ${f.required ? 'required' : 'optional'}`,
            );
          break;
        case 'inout':
          if (!inp) diffs.push(`${where}: is not an input, the seed says input and output`);
          if (f.required !== required.has(f.name))
            diffs.push(
              `${where}: ${required.has(f.name) ? 'is' : 'is not'} a required output, the seed says ${f.required ? 'required' : 'optional'}`,
            );
          if (requiredInputs.has(f.name))
            diffs.push(`${where}: is a required input, the seed says an optional input and output`);
          break;
        default:
          if (!inp) diffs.push(`${where}: is not an input (the seed lists it as an input)`);
          else if (f.required !== requiredInputs.has(f.name)) {
            diffs.push(
              `${where}: ${requiredInputs.has(f.name) ? 'is' : 'is not'} a required input, the seed says ${f.required ? 'required' : 'optional'}`,
            );
          }
      }
      if (f.alwaysInOutput && !required.has(f.name))
        diffs.push(`${where}: is not a required output, the seed says always present in the output`);
      fieldChecks(where, f, inp ?? out, inp);
      if (inp && out && !!inp.secret !== !!out.secret) diffs.push(`${where}: input and output differ in secrecy`);
    }
    if (!r.partial) {
      const known = new Set(r.fields.map((f) => f.name));
      const names = new Set([...Object.keys(res.properties ?? {}), ...Object.keys(res.inputProperties ?? {})]);
      for (const n of [...names].sort()) if (!known.has(n)) diffs.push(`${r.name}.${n}: not in the seed`);
    }
  }

  // Nested types.
  for (const t of Object.values(seed.types)) {
    if (!want(t.name)) continue;
    const token = `${pkg}:index/${t.name}:${t.name}`;
    const spec = schema.types[token];
    if (!spec) {
      diffs.push(`${t.name}: type ${token} is not in the schema`);
      continue;
    }
    compareObject(t.name, t.fields, spec, !inputReachable.has(token), true, schema, inputReachable, diffs);
  }

  // Functions.
  for (const f of Object.values(seed.functions)) {
    if (!want(f.name)) continue;
    const fn = schema.functions[f.token];
    if (!fn) {
      diffs.push(`${f.name}: function ${f.token} is not in the schema`);
      continue;
    }
    for (const rt of f.resultTypes) {
      const refs = Object.values(fn.outputs?.properties ?? {}).map((p) => refName(p));
      if (!refs.includes(rt)) diffs.push(`${f.name}: no output refers to the result type ${rt}`);
    }
  }

  // Configuration and provider.
  if (want('config')) {
    const vars = schema.config.variables ?? {};
    const required = new Set(schema.config.defaults ?? []);
    for (const v of seed.config.variables) {
      const where = `config.${v.name}`;
      const spec = vars[v.name];
      if (!spec) {
        diffs.push(`${where}: not in the schema`);
        continue;
      }
      const seedRequired = v.required && !seed.config.allOptional;
      if (seedRequired !== required.has(v.name))
        diffs.push(
          `${where}: ${required.has(v.name) ? 'is' : 'is not'} required, the seed says ${seedRequired ? 'required' : 'optional'}`,
        );
      fieldChecks(where, v, spec, spec);
    }
    const known = new Set(seed.config.variables.map((v) => v.name));
    for (const n of Object.keys(vars).sort()) if (!known.has(n)) diffs.push(`config.${n}: not in the seed`);
  }
  if (want('provider')) {
    const p = schema.provider;
    for (const v of seed.config.variables) {
      if (!p.inputProperties?.[v.name]) diffs.push(`provider.${v.name}: is not a provider input`);
    }
    const stringOutputs = Object.entries(p.properties ?? {})
      .filter(([, s]) => s.type === 'string')
      .map(([n]) => n)
      .sort();
    if (seed.config.providerOutputs) {
      const expected = [...seed.config.providerOutputs].sort();
      if (expected.join(',') !== stringOutputs.join(',')) {
        diffs.push(
          `provider: outputs (string properties) are ${stringOutputs.join(', ')}, the seed says ${expected.join(', ')}`,
        );
      }
    }
    for (const n of seed.config.providerInputOnly ?? []) {
      if (!p.inputProperties?.[n]) diffs.push(`provider.${n}: is not a provider input`);
      if (stringOutputs.includes(n)) diffs.push(`provider.${n}: is a provider output, the seed says input only`);
    }
    for (const [m, tok] of Object.entries(seed.providerMethods)) {
      if (p.methods?.[m] !== tok)
        diffs.push(`provider: method ${m} is ${p.methods?.[m] ?? 'absent'}, the seed says ${tok}`);
      if (!schema.functions[tok]) diffs.push(`provider: method function ${tok} is not in the schema`);
    }
  }
  return diffs;
}

function compareObject(
  subject: string,
  fields: SeedField[],
  spec: PulumiObjectTypeSpec,
  outputOnly: boolean,
  complete: boolean,
  schema: PulumiPackageSchema,
  inputReachable: Set<string>,
  diffs: string[],
): void {
  const required = new Set(spec.required ?? []);
  const requiredOutputs = new Set(spec.language?.nodejs?.requiredOutputs ?? spec.required ?? []);
  const starSet = outputOnly ? requiredOutputs : required;
  for (const f of fields) {
    const where = `${subject}.${f.name}`;
    const prop = spec.properties?.[f.name];
    if (!prop) {
      diffs.push(`${where}: not in the schema`);
      continue;
    }
    if (f.required !== starSet.has(f.name)) {
      diffs.push(
        `${where}: ${starSet.has(f.name) ? 'is' : 'is not'} required${outputOnly ? ' (output type)' : ''}, the seed says ${f.required ? 'required' : 'optional'}`,
      );
    }
    if (f.alwaysInOutput && !requiredOutputs.has(f.name))
      diffs.push(`${where}: is not a required output, the seed says always present in output`);
    compareType(where, f.type, f.typeImplied, prop, schema, inputReachable, diffs);
    if (f.secret && !prop.secret) diffs.push(`${where}: is not secret, the seed flags it secret`);
    if (!f.secret && prop.secret)
      diffs.push(
        `${where}: is secret, the seed does not flag it${f.notSecret ? ' (it says: not flagged secret)' : ''}`,
      );
    if (f.default !== undefined && prop.default !== f.default) {
      diffs.push(
        `${where}: default is ${prop.default === undefined ? 'absent' : JSON.stringify(prop.default)}, the seed says ${JSON.stringify(f.default)}`,
      );
    }
    if (f.default === undefined && prop.default !== undefined)
      diffs.push(`${where}: has default ${JSON.stringify(prop.default)}, the seed states none`);
    if (f.deprecated && !prop.deprecationMessage) diffs.push(`${where}: is not deprecated, the seed says deprecated`);
    if (!f.deprecated && prop.deprecationMessage) diffs.push(`${where}: is deprecated, the seed does not say so`);
  }
  if (complete) {
    const known = new Set(fields.map((f) => f.name));
    for (const n of Object.keys(spec.properties ?? {}).sort())
      if (!known.has(n)) diffs.push(`${subject}.${n}: not in the seed`);
  }
}

function compareType(
  where: string,
  seedType: SeedType,
  implied: boolean,
  spec: PulumiTypeSpec,
  schema: PulumiPackageSchema,
  inputReachable: Set<string>,
  diffs: string[],
): void {
  const mismatch = () =>
    diffs.push(
      `${where}: type is ${formatSpec(spec)}, the seed says ${formatSeedType(seedType)}${implied ? ' (implied: no type stated)' : ''}`,
    );
  switch (seedType.kind) {
    case 'unknown':
      return;
    case 'string':
    case 'boolean':
      if (spec.type !== seedType.kind) mismatch();
      return;
    case 'number':
      if (spec.type !== 'number' && spec.type !== 'integer') mismatch();
      return;
    case 'array':
      if (spec.type !== 'array' || !spec.items) return void mismatch();
      compareType(where, seedType.items, false, spec.items, schema, inputReachable, diffs);
      return;
    case 'map':
      if (spec.type !== 'object' || !spec.additionalProperties) return void mismatch();
      compareType(where, seedType.values, false, spec.additionalProperties, schema, inputReachable, diffs);
      return;
    case 'ref': {
      if (refName(spec) !== seedType.name) return void mismatch();
      return;
    }
    case 'object': {
      const token = spec.$ref?.replace(/^#\/types\//, '');
      const target = token ? schema.types[token] : undefined;
      if (!target) return void mismatch();
      if (seedType.fields)
        compareObject(
          `${where}{}`,
          seedType.fields,
          target,
          !inputReachable.has(token!),
          true,
          schema,
          inputReachable,
          diffs,
        );
      return;
    }
  }
}

/** The nested type name a property refers to (directly, or as array items / map values). */
function refName(spec: PulumiTypeSpec): string | undefined {
  if (spec.$ref?.startsWith('#/types/')) return spec.$ref.slice(spec.$ref.lastIndexOf(':') + 1);
  if (spec.items) return refName(spec.items);
  if (spec.additionalProperties) return refName(spec.additionalProperties);
  return undefined;
}

function formatSpec(spec: PulumiTypeSpec): string {
  if (spec.$ref) return spec.$ref.startsWith('#/types/') ? spec.$ref.slice(spec.$ref.lastIndexOf(':') + 1) : spec.$ref;
  if (spec.type === 'array') return `array of ${spec.items ? formatSpec(spec.items) : '?'}`;
  if (spec.type === 'object' && spec.additionalProperties) return `map of ${formatSpec(spec.additionalProperties)}`;
  return spec.type ?? '?';
}

/** Tokens of nested types reachable from any input position (resource, function and provider inputs, config). */
export function reachableFromInputs(schema: PulumiPackageSchema): Set<string> {
  const seen = new Set<string>();
  const visitSpec = (s: PulumiTypeSpec | undefined) => {
    if (!s) return;
    if (s.$ref?.startsWith('#/types/')) {
      const tok = s.$ref.slice('#/types/'.length);
      if (seen.has(tok)) return;
      seen.add(tok);
      for (const p of Object.values(schema.types[tok]?.properties ?? {})) visitSpec(p);
    }
    visitSpec(s.items);
    visitSpec(s.additionalProperties);
  };
  const visitProps = (props: Record<string, PulumiPropertySpec> | undefined) => {
    for (const p of Object.values(props ?? {})) visitSpec(p);
  };
  for (const r of Object.values(schema.resources)) visitProps(r.inputProperties);
  for (const f of Object.values(schema.functions)) visitProps(f.inputs?.properties);
  visitProps(schema.provider.inputProperties);
  visitProps(schema.config.variables);
  return seen;
}
