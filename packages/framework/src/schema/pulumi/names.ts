/**
 * A provider's resources and their arguments as a Pulumi program names them through
 * pulumi-terraform-bridge's dynamic provider (naming.ts has the bridge's rules): the type token
 * (`sec:index/alertChannelEmail:AlertChannelEmail`) and property paths (`alertChannels`,
 * `alerting[0].profile`), for messages a Pulumi user reads. The Pulumi schema tests hold these rules to
 * the bridge's own schema (test/golden/pulumi.test.ts, test/acceptance/pulumi-cli.test.ts).
 */
import type { SchemaBlock } from '../block.js';
import type { AttributePath } from '../path.js';
import {
  computeTokens,
  type FieldShape,
  inferResourcePrefix,
  renamedIdField,
  terraformToPulumiName,
  type TokenMapping,
} from './naming.js';

export class PulumiNames {
  private tokens: TokenMapping | undefined;
  private readonly prefix: string;

  constructor(
    private readonly pkg: string,
    /** Each type's schema: its block is read only for a type whose property path is asked for. */
    private readonly resources: ReadonlyMap<string, { readonly block: SchemaBlock }>,
    private readonly dataSources: readonly string[] = [],
  ) {
    const inferred = inferResourcePrefix(resources.keys());
    this.prefix = inferred === '' ? pkg : inferred;
  }

  /** The type token of a resource type: what `pulumi import` and a program's `type:` take. */
  resourceToken(tfType: string): string {
    this.tokens ??= computeTokens(this.pkg, this.prefix, this.resources.keys(), this.dataSources);
    return this.tokens.resources.get(tfType) ?? tfType;
  }

  /** A path of a resource's arguments as a program writes it: `alerting[0].profile`. */
  propertyPath(tfType: string, path: AttributePath): string {
    let block: SchemaBlock | undefined = this.resources.get(tfType)?.block;
    let out = '';
    let top = true;
    for (const step of path) {
      if ('index' in step) out += `[${step.index}]`;
      else if ('key' in step) out += `[${JSON.stringify(step.key)}]`;
      else {
        const name = block ? this.propertyName(tfType, block, step.attr, top) : step.attr;
        out += out === '' ? name : `.${name}`;
        block = block?.blockTypes[step.attr]?.block;
        top = false;
      }
    }
    return out;
  }

  private propertyName(tfType: string, block: SchemaBlock, field: string, top: boolean): string {
    const shapes = shapesOf(block);
    if (top && field === 'id') {
      const id = block.attributes.id;
      const renamed = renamedIdField(
        this.pkg,
        this.prefix,
        tfType,
        id && {
          computed: id.computed,
          optional: id.optional,
          required: id.required,
          isString: id.type.kind === 'string',
        },
        new Set(shapes.keys()),
      );
      if (renamed) return terraformToPulumiName(renamed, shapes);
    }
    return terraformToPulumiName(field, shapes);
  }
}

/** What the bridge's name rules read of each field of a block: a collection, and its most items. */
function shapesOf(block: SchemaBlock): Map<string, FieldShape> {
  const shapes = new Map<string, FieldShape>();
  for (const [name, a] of Object.entries(block.attributes))
    shapes.set(name, { collection: a.type.kind === 'list' || a.type.kind === 'set', maxItems: 0 });
  for (const [name, b] of Object.entries(block.blockTypes))
    shapes.set(name, { collection: b.nesting === 'list' || b.nesting === 'set', maxItems: b.maxItems });
  return shapes;
}
