/**
 * The provider's own configuration: ValidateProviderConfig and ConfigureProvider, which makes the
 * client every operation uses (or records why there is none yet).
 */
import { impliedType } from '../../schema/block.js';
import { toModel } from '../../schema/model.js';
import { attrStep } from '../../schema/path.js';
import type { ObjectValue } from '../../schema/value.js';
import { isWhollyKnown } from '../../schema/value-ops.js';
import { Diagnostics, diagnosticFromError } from '../diagnostics/index.js';
import type { EngineContext } from '../context/index.js';
import { checkConfig } from '../plan/index.js';

export class ProviderConfiguration<C> {
  constructor(private readonly ctx: EngineContext<C>) {}

  validateProviderConfig(config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    checkConfig(this.ctx.def, config, diags, { summary: 'Invalid provider configuration' });
    return diags;
  }

  async configureProvider(terraformVersion: string, config: ObjectValue): Promise<Diagnostics> {
    const { ctx } = this;
    const diags = new Diagnostics();
    ctx.host.configured(terraformVersion);
    if (!isWhollyKnown(impliedType(ctx.def.schema.block), config)) {
      // Terraform may configure with values that depend on resources not yet created
      // (docs/protocol.md, "Configuring with unknown values"); planning needs no API calls, so fail
      // only if an operation needs the client.
      ctx.unconfiguredReason =
        'The provider configuration depends on values that are not known until apply, so the provider cannot ' +
        'reach the API yet. Apply the resources the provider configuration depends on first (for example with ' +
        '-target).';
      return diags;
    }
    try {
      const model = toModel(ctx.def.schema.fields, config);
      const settings = ctx.def.createSettings?.(model, ctx.env);
      ctx.client = await ctx.def.configure(model, { terraformVersion, diags, log: ctx.log, env: ctx.env });
      if (settings) ctx.createSettings = settings;
      if (settings?.untrackedObjects === 'adopt')
        diags.warning(
          'untracked_objects = "adopt" is retired',
          'It took over objects that no record said whose they were, and such an object may be another ' +
            'state\'s (another runner\'s workspace, another configuration): it now refuses as "refuse" does. ' +
            'What a killed run of this workspace made is still taken back on the evidence of its record; for ' +
            'anything else, import it, or set "create" to make a new object beside it.',
          [attrStep('untracked_objects')],
        );
      // The records of creates are kept per API address (another configuration never reads them) and
      // per state: Terraform's backend and workspace as the client's run began with them, or the Pulumi
      // stack, whose engine stores each result as it gets it; a test run keeps none.
      if (ctx.def.apiAddress) {
        const pulumi = ctx.host.isPulumi;
        const stack = pulumi ? ctx.host.command.stack : undefined;
        ctx.journal.useApi(ctx.def.apiAddress(ctx.client), {
          ...(ctx.createSettings.recordsDir ? { recordsDir: ctx.createSettings.recordsDir } : {}),
          ...(pulumi ? { stack: `pulumi stack ${stack ?? '(unnamed)'}` } : {}),
          run: () => ctx.host.run,
          testing: ctx.host.command.testing === true,
          ...(ctx.host.command.statePath ? { statePath: ctx.host.command.statePath } : {}),
        });
        ctx.journal.hostHoldsOnReturn = pulumi;
      }
    } catch (err) {
      diags.append([diagnosticFromError('Cannot configure the provider', err)]);
    }
    return diags;
  }
}
