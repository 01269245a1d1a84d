/**
 * Messages in the words of the client that runs the provider (host-view.ts says which): a Terraform
 * user reads `sec_alert_channel_email`, `query_id`, an `import` block and the provider block; an
 * OpenTofu user `tofu import`; a Pulumi user `sec:index/alertChannelEmail:AlertChannelEmail`,
 * `queryId`, `pulumi import` and `pulumi config set` (the bridge's names:
 * packages/framework/src/schema/pulumi/names.ts).
 */
import type { SchemaBlock } from '../../schema/block.js';
import { formatPath, type AttributePath } from '../../schema/path.js';
import { PulumiNames } from '../../schema/pulumi/names.js';
import { terraformToPulumiName } from '../../schema/pulumi/naming.js';
import { Diagnostics } from '../diagnostics/index.js';
import type { HostView } from './host-view.js';

/** What the terms need of the provider: its name, its types' schemas, its settings' variables. */
export interface TermsSource {
  readonly name: string;
  /** `SEC`: the settings' environment variables are `SEC_<SETTING>`. */
  readonly environmentPrefix?: string;
  /** Each type's schema, whose block is built when a message first needs it (most processes never do). */
  readonly resources: ReadonlyMap<string, { readonly block: SchemaBlock }>;
  readonly dataSources: readonly string[];
}

export class HostTerms {
  private pulumiNames: PulumiNames | undefined;
  private typeNames: RegExp | undefined;

  constructor(
    private readonly host: HostView,
    private readonly source: TermsSource,
  ) {}

  get isPulumi(): boolean {
    return this.host.isPulumi;
  }

  /** The command that runs the client: `terraform`, `tofu`, `pulumi`. */
  get program(): string {
    return this.host.kind === 'opentofu' ? 'tofu' : this.host.kind;
  }

  /** What holds the objects a run manages: a Terraform workspace's state, a Pulumi stack. */
  get stateWord(): string {
    return this.isPulumi ? 'stack' : 'state';
  }

  get workspaceWord(): string {
    return this.isPulumi ? 'stack' : 'workspace';
  }

  /** A resource type as the user writes it. */
  typeName(tfType: string): string {
    return this.isPulumi ? this.names().resourceToken(tfType) : tfType;
  }

  /** An argument's path as the user writes it, in backticks. */
  argument(tfType: string, path: AttributePath): string {
    return `\`${this.isPulumi ? this.names().propertyPath(tfType, path) : formatPath(path)}\``;
  }

  /** How to adopt an object with this client: one command, or the choice among several ids. */
  importAdvice(tfType: string, importable: boolean, ids: readonly string[], idDescription = 'its id'): string {
    if (!importable) return 'This type cannot be imported: remove the object on the platform if it is unwanted.';
    const id = ids.length === 1 ? ids[0]! : `<${idDescription}>`;
    const which = ids.length > 1 ? 'the right one' : 'it';
    if (this.isPulumi)
      return (
        `To manage ${which} with this resource, import ${which}: \`pulumi import ${this.typeName(tfType)} ` +
        `<resource name> '${id}'\`, then use the code it prints.`
      );
    return (
      `To manage ${which} with this resource, import ${which}: an \`import\` block with \`id = "${id}"\`, or ` +
      `\`${this.program} import <address> '${id}'\`.`
    );
  }

  /** A provider setting's name as this client's user sets it. */
  settingName(name: string): string {
    return this.isPulumi ? `\`${this.source.name}:${terraformToPulumiName(name)}\`` : `\`${name}\``;
  }

  /** How to give a provider setting a value, for good and for one run. */
  setting(name: string, value: string): string {
    const variable = this.source.environmentPrefix
      ? `${this.source.environmentPrefix}_${name.toUpperCase()}=${value}`
      : undefined;
    const once = variable ? `, or \`${variable}\` in the environment of one run` : '';
    if (this.isPulumi)
      return `\`pulumi config set ${this.source.name}:${terraformToPulumiName(name)} ${value}\`${once}`;
    return `\`${name} = "${value}"\` in the provider block${once}`;
  }

  /** How an object leaves a state and stays on the platform, in this client's commands. */
  get stateRemoved(): string {
    if (this.isPulumi) return '`pulumi state delete`';
    const { program } = this;
    const deleted = `\`${program} workspace delete\` and the workspace made again`;
    return `\`${program} state rm\`, a \`removed\` block, \`${program} state mv\` into another state, or ${deleted}`;
  }

  /** The command that plans, and the one that applies. */
  get planCommand(): string {
    return this.isPulumi ? 'pulumi preview' : `${this.program} plan`;
  }

  get applyCommand(): string {
    return this.isPulumi ? 'pulumi up' : `${this.program} apply`;
  }

  /**
   * A plan's or an apply's diagnostics in this client's words. Pulumi's bridge shows a diagnostic's
   * path as `[AttributeName("query_id")]` and never the Terraform type: there, each Terraform type name
   * a message holds becomes its type token, and the path becomes the property it names, in the text.
   */
  inClientWords(tfType: string, diags: Diagnostics): Diagnostics {
    if (!this.isPulumi || diags.items.length === 0) return diags;
    const longestFirst = [...this.source.resources.keys()].sort((a, b) => b.length - a.length);
    this.typeNames ??= new RegExp(`(?<![A-Za-z0-9_])(${longestFirst.join('|')})(?![A-Za-z0-9_])`, 'g');
    const words = (text: string) => text.replace(this.typeNames!, (name) => this.typeName(name));
    const out = new Diagnostics();
    for (const d of diags.items) {
      const at = d.path && d.path.length > 0 ? `${this.argument(tfType, d.path)}: ` : '';
      out.append([{ severity: d.severity, summary: words(d.summary), detail: `${at}${words(d.detail)}` }]);
    }
    return out;
  }

  private names(): PulumiNames {
    this.pulumiNames ??= new PulumiNames(this.source.name, this.source.resources, this.source.dataSources);
    return this.pulumiNames;
  }
}
