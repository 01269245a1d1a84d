/**
 * Ephemeral resources: their schemas, ValidateEphemeralResourceConfig, Open, Renew and Close, and
 * what this process opened and Terraform never closed.
 */
import type { Schema } from '../../schema/block.js';
import { fromModel, toModel } from '../../schema/model.js';
import type { ObjectValue } from '../../schema/value.js';
import { Diagnostics, diagnosticFromError } from '../diagnostics/index.js';
import { MODEL_OPTIONS, errorsOf, type EngineContext, type PrivateState } from '../context/index.js';
import { reconcileRead, checkConfig } from '../plan/index.js';

export interface OpenedEphemeral {
  result: ObjectValue | null;
  renewAt?: Date;
  private: PrivateState;
  diags: Diagnostics;
}

export class EphemeralResources<C> {
  /** Ephemeral values opened and not closed yet, by type and private state (see closeLeftoverEphemerals). */
  private readonly openEphemerals = new Map<string, { readonly typeName: string; readonly priv: PrivateState }>();

  constructor(private readonly ctx: EngineContext<C>) {}

  ephemeralResourceSchemas(): Map<string, Schema> {
    return this.ctx.ephemeralResources.collect((e) => e.schema);
  }
  ephemeralResourceSchema(typeName: string): Schema | undefined {
    return this.ctx.ephemeralResources.get(typeName)?.schema;
  }

  validateEphemeralResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    const e = this.ctx.ephemeralResources.find(typeName, diags);
    if (!e) return diags;
    checkConfig(e, config, diags, { limits: this.ctx.def.limits });
    return diags;
  }

  /** OpenEphemeralResource: the value for this run; the configuration is wholly known here. */
  async openEphemeralResource(typeName: string, config: ObjectValue): Promise<OpenedEphemeral> {
    const diags = new Diagnostics();
    const e = this.ctx.ephemeralResources.find(typeName, diags);
    if (!e) return { result: null, private: {}, diags };
    if (diags.append(errorsOf(e, config, null, this.ctx.def.limits)).hasErrors) {
      return { result: null, private: {}, diags };
    }
    try {
      const model = toModel(e.schema.fields, config, MODEL_OPTIONS);
      const opened = await e.open(model, this.ctx.operation(diags, {}, typeName));
      const fresh = fromModel(e.schema.fields, opened.result, config);
      // Configured values stay exactly as configured; the rest comes from the platform.
      const result = reconcileRead(e.schema.fields, config, fresh);
      for (const [name, v] of Object.entries(config)) {
        if (v !== null && e.schema.fields[name]?.kind === 'attr') result[name] = v;
      }
      if (e.close) {
        this.openEphemerals.set(openedKey(typeName, opened.private ?? {}), { typeName, priv: opened.private ?? {} });
      }
      return { result, ...(opened.renewAt ? { renewAt: opened.renewAt } : {}), private: opened.private ?? {}, diags };
    } catch (err) {
      diags.append([diagnosticFromError(`Cannot open ${typeName}`, err)]);
      return { result: null, private: {}, diags };
    }
  }

  async renewEphemeralResource(
    typeName: string,
    priv: PrivateState,
  ): Promise<{ renewAt?: Date; private: PrivateState; diags: Diagnostics }> {
    const diags = new Diagnostics();
    const e = this.ctx.ephemeralResources.find(typeName, diags);
    if (!e) return { private: priv, diags };
    if (!e.renew) return { private: priv, diags };
    try {
      const renewed = await e.renew(priv, this.ctx.operation(diags, priv, typeName));
      if (renewed.private && this.openEphemerals.delete(openedKey(typeName, priv))) {
        this.openEphemerals.set(openedKey(typeName, renewed.private), { typeName, priv: renewed.private });
      }
      const renewAt = renewed.renewAt ? { renewAt: renewed.renewAt } : {};
      return { ...renewAt, private: renewed.private ?? priv, diags };
    } catch (err) {
      diags.append([diagnosticFromError(`Cannot renew ${typeName}`, err)]);
      return { private: priv, diags };
    }
  }

  /** CloseEphemeralResource: a failure is a warning (the run's work is done) that names what was left. */
  async closeEphemeralResource(typeName: string, priv: PrivateState): Promise<Diagnostics> {
    const diags = new Diagnostics();
    const e = this.ctx.ephemeralResources.find(typeName, diags);
    if (!e) return diags;
    if (!e.close) return diags;
    this.openEphemerals.delete(openedKey(typeName, priv));
    try {
      await e.close(priv, this.ctx.operation(diags, priv, typeName));
    } catch (err) {
      const d = diagnosticFromError(`Could not close ${typeName}`, err);
      diags.warning(d.summary, d.detail);
    }
    return diags;
  }

  /**
   * Closes what this process opened and Terraform never closed: Terraform 1.11 skips Close when a
   * consumer of an ephemeral value fails or the run is interrupted, and a key made for the run would
   * live until it expires. Called as the provider shuts down, within `budgetMs`. Each is named in a
   * warning first, so that one the budget does not cover is still known by its id and expiry.
   */
  async closeLeftoverEphemerals(budgetMs: number): Promise<void> {
    const left = [...this.openEphemerals.values()];
    this.openEphemerals.clear();
    const signal = AbortSignal.timeout(budgetMs);
    await Promise.all(
      left.map(async ({ typeName, priv }) => {
        const e = this.ctx.ephemeralResources.get(typeName)!;
        const what = e.describeOpened?.(priv) ?? typeName;
        const log = this.ctx.log.child({ tf_resource_type: typeName });
        log.warn(
          'Terraform did not close an ephemeral value this provider opened; closing it as the provider shuts down',
          { opened: what },
        );
        try {
          await e.close!(priv, this.ctx.operation(new Diagnostics(), priv, typeName, undefined, signal));
          log.info('closed the ephemeral value Terraform left open', { opened: what });
        } catch (err) {
          const error = diagnosticFromError('close', err).detail;
          log.warn('could not close the ephemeral value Terraform left open', { opened: what, error });
        }
      }),
    );
  }
}

/** An opened ephemeral value as Close will name it again: its type and private state. */
function openedKey(typeName: string, priv: PrivateState): string {
  return `${typeName}\0${JSON.stringify(priv)}`;
}
