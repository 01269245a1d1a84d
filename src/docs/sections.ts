/**
 * The sections of the reference pages that say more than a schema's fields: a resource's identity,
 * what happens when a create's answer is lost or an apply is interrupted, how to import it and what
 * an import cannot read back, what configuration Terraform generates for imported objects, what an
 * ephemeral resource leaves open when Terraform does not close it, and what a configuration written
 * for the upstream provider must change. Each reads the declarations and returns the section's lines.
 */
import type { DataSourceDef, ProviderDef, ResourceDef } from '../../packages/framework/src/engine/contracts/index.js';
import {
  requiredUnreadable,
  type FieldDef,
  type Fields,
  type Unreadable,
} from '../../packages/framework/src/schema/define.js';
import type { Value } from '../../packages/framework/src/schema/value.js';
import { formatDefault } from './fields.js';
import { docPaths } from './paths.js';
import { joinAnd, lowerFirst, sentence, sortByType } from './text.js';

type AnyResource = ResourceDef<any, any>;
type AnyDataSource = DataSourceDef<any, any>;
type AnyProvider = ProviderDef<any, any>;

/** The identity attributes; with their role in an import by identity where the type can be imported. */
export function identityBullets(r: AnyResource): string[] {
  return Object.entries(r.identity?.attributes ?? {}).map(
    ([name, a]) =>
      `* \`${name}\` - (String${r.importState ? `, ${a.forImport} for import` : ''}) ${sentence(a.description)}`,
  );
}

/** What names the object for Terraform 1.12 and later, and how `terraform query` finds it. */
export function identitySection(def: AnyProvider, r: AnyResource): string[] {
  if (!r.identity) return [];
  const out = ['## Identity', ''];
  out.push(
    `Terraform 1.12 and later keep the identity of each object beside its state; it names the object for its whole ` +
      `life and never changes. ${
        r.importState
          ? 'An `import` block may give it instead of an import id, leaving out the attributes that are optional for ' +
            'import.'
          : 'This type cannot be imported, so the identity only names the object in the state.'
      }`,
    '',
  );
  out.push(...identityBullets(r), '');
  if (r.list) {
    const page = docPaths(def).listResources.get(r.typeName)!.split('/').pop();
    out.push(
      'Terraform 1.14 and later find existing objects of this type with `terraform query`: ' +
        `see the [list resource](../list-resources/${page}).`,
      '',
    );
  }
  return out;
}

/** What happens to an opened value Terraform never closes (README, "Interrupted applies and lost answers"). */
export function leftOpenSection(): string[] {
  return [
    '## When Terraform does not close it',
    '',
    'Terraform closes an ephemeral resource when the run no longer needs it, ' +
      'but Terraform 1.11 skips that when a resource or provisioner that uses the value fails, ' +
      'or when the run is interrupted. ' +
      'The provider then closes what it opened itself when Terraform shuts it down at the end of the command, ' +
      'and names each value it closes (or could not close, with its id and expiry) ' +
      'in a warning in the provider log (`TF_LOG_PROVIDER=warn`). ' +
      'If Terraform itself is killed (SIGKILL, a second Ctrl-C), nothing can close it: ' +
      'the value lives until it expires.',
    '',
  ];
}

/** What a user can rely on when a create's answer is lost or the apply is interrupted (README, same title). */
export function interruptionSection(r: AnyResource): string[] {
  const out = ['## Interrupted applies and lost answers', ''];
  const lookup = r.findCreated;
  if (lookup) {
    out.push(
      'If the answer to a create is lost (a dropped connection, a gateway error, a deadline, ' +
        'Terraform interrupted with Ctrl-C), the request may have made the object or may never have arrived. ' +
        `The provider then looks for the object by ${lookup.key}, ` +
        'and keeps it in the state only with evidence that this create made it: ' +
        'it was not among the objects the provider listed before sending the create, ' +
        'no other resource of the run made it, it holds what the configuration sets, and it is the only such object. ' +
        'When no new object exists, the request is sent again. ' +
        'Otherwise the apply stops with "Create outcome unknown", ' +
        'naming each object found and how to import the right one; nothing is adopted or deleted.',
      '',
    );
    const unique =
      lookup.uniqueKey === true
        ? `The platform keeps ${lookup.key} unique: a create whose key an existing object holds fails with "already ` +
          `exists", naming that object and how to import it. It is never taken over.`
        : lookup.uniqueKey === false
          ? `The platform does not keep ${lookup.key} unique: objects with the same key that this configuration did ` +
            `not make (another workspace's, one made in the console, the object a \`create_before_destroy\` ` +
            `replacement replaces) are never adopted after a lost answer.`
          : `The platform keeps the key unique for some configurations (see above): there, a create whose key an ` +
            `existing object holds fails with "already exists", naming that object and how to import it. Objects ` +
            `with the same key that this configuration did not make are never adopted.`;
    out.push(unique, '');
    const when = lookup.madeAt
      ? ', made while that request could have made it (the platform says when each object was made)'
      : '';
    out.push(
      "If Terraform or the provider is killed outright while a create is out (SIGKILL, a CI job's timeout, " +
        "the OOM killer), the provider has written the create down beforehand, beside Terraform's own data " +
        '(`.terraform/keel-creates`). The next apply in the same working directory looks for what the killed ' +
        `run made before sending anything, and adopts it on the same evidence${when}; otherwise it stops with ` +
        '"Create outcome unknown", naming each object.',
      '',
      `Before any create, the plan judges each existing object that holds ${lookup.key}` +
        (lookup.uniqueKey === true ? '' : ' and every setting the platform reports') +
        ' by whose it is (README, "Whose object is it"): one that another workspace or Pulumi stack of the same ' +
        'working directory holds is never refused, adopted or changed' +
        (lookup.uniqueKey === false
          ? ', and this configuration makes its own beside it'
          : lookup.uniqueKey === true
            ? `, but as the platform keeps ${lookup.key} unique the plan fails, naming that workspace`
            : '') +
        '. One that nothing speaks for (a killed job re-run on a fresh runner, another folder, a person) fails the ' +
        'plan by default, naming each likely cause and the `import` block that adopts it; `untracked_objects` ' +
        'decides otherwise.',
      '',
    );
    const oneTime = Object.entries(r.schema.fields as Fields)
      .filter(([, d]) => d.kind === 'attr' && d.options.oneTime)
      .map(([n]) => `\`${n}\``);
    if (oneTime.length > 0) {
      out.push(
        `Its ${oneTime.join(', ')} comes only in the answer to the create, so an object this create provably made ` +
          `but whose answer was lost is deleted and created again; after Ctrl-C it is kept in the state, marked ` +
          `tainted, and the next apply replaces it.`,
        '',
      );
    }
  } else if (r.repeatableCreate) out.push(r.repeatableCreate, '');
  out.push(
    'A create interrupted after the object exists keeps it in the state, marked tainted: the next apply replaces it.',
    '',
  );
  return out;
}

/**
 * What a configuration written for the upstream provider needs: every value sensitive here that the
 * upstream provider did not mark (`sensitiveUnlikeUpstream`), which its outputs must now mark too; and
 * what this provider has that the upstream one has not (`addedOverUpstream`), which such a
 * configuration does without.
 */
export function migrationSection(def: AnyProvider): string[] {
  const types = [...sortByType(def.resources), ...sortByType(def.dataSources)];
  const kindOf = (r: AnyResource | AnyDataSource) =>
    def.dataSources.includes(r as AnyDataSource) ? ' (data source)' : '';
  const marked = types.flatMap((r) => {
    const paths = fieldPaths(r.schema.fields as Fields)
      .filter(([, d]) => d.kind === 'attr' && d.options.sensitiveUnlikeUpstream)
      .map(([p]) => `\`${p}\``);
    return paths.length > 0 ? [`* \`${r.typeName}\`${kindOf(r)}: ${paths.join(', ')}`] : [];
  });
  // One line per place and reason: fields added for one reason are named together.
  const addedIn = (fields: Fields, where: string) => {
    const byReason = new Map<string, string[]>();
    for (const [path, d] of fieldPaths(fields))
      if (d.kind === 'attr' && d.options.addedOverUpstream !== undefined)
        byReason.set(d.options.addedOverUpstream, [...(byReason.get(d.options.addedOverUpstream) ?? []), path]);
    return [...byReason].map(
      ([reason, paths]) => `* ${where} ${joinAnd(paths.map((p) => `\`${p}\``))}. ${sentence(reason)}`,
    );
  };
  const added = [
    ...addedIn(def.schema.fields as Fields, 'in the provider block,'),
    ...types.flatMap((r) => addedIn(r.schema.fields as Fields, `\`${r.typeName}\`${kindOf(r)}:`)),
  ];
  if (marked.length === 0 && added.length === 0) return [];
  return [
    '## Migrating from the upstream provider',
    '',
    ...(marked.length === 0
      ? []
      : [
          'These values are sensitive here, though the upstream provider did not mark them so. ' +
            'Terraform refuses an `output` that shows a sensitive value unless the output sets `sensitive = true`, ' +
            'so an output of one of them written for the upstream provider needs `sensitive = true` added:',
          '',
          ...marked,
          '',
        ]),
    ...(added.length === 0
      ? []
      : [
          "These are this provider's own; the upstream provider has none of them, and a configuration written " +
            'for it does without them:',
          '',
          ...added,
          '',
        ]),
  ];
}

/** Every field with its path from the top (`credentials.client_secret`), blocks before their fields. */
function fieldPaths(fields: Fields, prefix = ''): Array<[string, FieldDef]> {
  return Object.keys(fields)
    .sort()
    .flatMap((name): Array<[string, FieldDef]> => {
      const def = fields[name]!;
      const path = prefix === '' ? name : `${prefix}.${name}`;
      return def.kind === 'block' ? [[path, def], ...fieldPaths(def.fields, path)] : [[path, def]];
    });
}

/**
 * What an import cannot read back from the platform: the provider's own settings (an import gives
 * their defaults) and arguments that declare what an import sets them to (`onImport`).
 */
function importLimits(r: AnyResource): string[] {
  const lines = fieldPaths(r.schema.fields as Fields).flatMap(([path, d]) => {
    if (d.kind !== 'attr') return [];
    const o = d.options;
    if (o.onImport !== undefined) return [`* \`${path}\`: ${lowerFirst(sentence(o.onImport))}`];
    if (!o.providerOnly) return [];
    const value = o.default !== undefined ? `its default, \`${formatDefault(o.default as Value)}\`` : 'null';
    return [
      `* \`${path}\` is the provider's own setting, which the platform does not keep: an import sets it to ${value}. ` +
        'A configuration that sets another value records it at the first apply after the import, ' +
        'without calling the platform.',
    ];
  });
  if (lines.length === 0) return [];
  return ['What the platform does not say comes back from an import as follows:', '', ...lines, ''];
}

export function importSection(r: AnyResource): string[] {
  const out = ['## Import', ''];
  if (!r.importState) {
    out.push('This resource cannot be imported.', '');
    return out;
  }
  const what = r.importIdDescription ?? 'the identifier of the object';
  const placeholder = importPlaceholder(what);
  out.push(`The import id is ${what}.`, '');
  out.push('With an `import` block (Terraform 1.5 and later):', '');
  out.push('```terraform', 'import {', `  to = ${r.typeName}.example`, `  id = "${placeholder}"`, '}', '```', '');
  const required = Object.entries(r.identity?.attributes ?? {}).filter(([, a]) => a.forImport === 'required');
  if (required.length > 0) {
    const width = Math.max(...required.map(([n]) => n.length));
    out.push('With its identity (Terraform 1.12 and later):', '');
    out.push(
      '```terraform',
      'import {',
      `  to = ${r.typeName}.example`,
      '  identity = {',
      ...required.map(([n]) => `    ${n.padEnd(width)} = "<${n}>"`),
      '  }',
      '}',
      '```',
      '',
    );
  }
  out.push('With the `terraform import` command:', '');
  out.push('```shell', `terraform import ${r.typeName}.example '${placeholder}'`, '```', '');
  out.push(...importLimits(r));
  out.push(...generatedConfiguration(r));
  return out;
}

/** What configuration Terraform generates for imported objects lacks (`requiredUnreadable`), and what to do. */
function generatedConfiguration(r: AnyResource): string[] {
  const sentences = [
    '`terraform plan -generate-config-out=generated.tf`, with `import` blocks and no `resource` blocks, ' +
      'writes the configuration of the imported objects (Terraform 1.5 and later; it leaves out deprecated ' +
      'arguments, which an import never sets).',
  ];
  const missing = requiredUnreadable(r.schema.fields);
  if (missing.length === 0) {
    sentences.push('It plans as written, and the apply imports the objects without changing them.');
    return [sentences.join(' '), ''];
  }
  const names = (list: readonly Unreadable[], suffix = '', word = 'and') =>
    joinAnd(
      list.map((u) => `\`${u.path.join('.')}${suffix}\``),
      word,
    );
  const it = (list: readonly Unreadable[]) => (list.length === 1 ? 'it' : 'them');
  const secrets = missing.filter((u) => u.secret);
  const hidden = missing.filter((u) => !u.secret);
  if (secrets.length > 0) {
    const twins = secrets.filter((u) => twinOf(r.schema.fields, u.path));
    const orWriteOnly = twins.length > 0 ? ` (or the write-only ${names(twins, '_wo', 'or')})` : '';
    sentences.push(
      // Whether or not the platform returns it: Terraform never writes a sensitive value out.
      `It cannot hold ${names(secrets)}, which ${secrets.length === 1 ? 'is' : 'are'} sensitive: Terraform writes ` +
        `${secrets.length === 1 ? 'it' : 'each'} as \`null # sensitive\`, and the plan stops with ` +
        `"Missing configuration for required argument". Fill ${it(secrets)} in${orWriteOnly} before planning; ` +
        `the first apply sends ${it(secrets)} once and changes nothing else.`,
    );
  }
  if (hidden.length > 0) {
    sentences.push(
      `${names(hidden)} ${hidden.length === 1 ? 'is' : 'are'} written as \`null\` where the platform leaves ` +
        `${it(hidden)} out of its answers: fill ${it(hidden)} in` +
        `${secrets.length > 0 ? ' too' : ` before planning; the first apply sends ${it(hidden)} once`}.`,
    );
  }
  return [sentences.join(' '), ''];
}

/** Whether the argument at `path` has a write-only twin. */
function twinOf(fields: Fields, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  const def = fields[head!];
  if (!def) return false;
  if (def.kind === 'block') return twinOf(def.fields, rest);
  return rest.length === 0 && def.options.writeOnlyTwin !== undefined;
}

/**
 * The id placeholder an import description suggests: its form when it shows one (`<cluster_id>/<id>`),
 * `<name>` when it names an attribute (`intg_guid`), else `<id>`.
 */
export function importPlaceholder(description: string): string {
  const code = /`([^`]+)`/.exec(description)?.[1];
  if (code?.startsWith('<')) return code;
  if (code && /^[a-z][a-z0-9_]*$/.test(code)) return `<${code}>`;
  return '<id>';
}
