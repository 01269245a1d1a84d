/** Data sources: their schemas, ValidateDataResourceConfig and ReadDataSource. */
import type { Schema } from '../../schema/block.js';
import { fromModel, toModel } from '../../schema/model.js';
import type { ObjectValue } from '../../schema/value.js';
import { Diagnostics, diagnosticFromError } from '../diagnostics/index.js';
import { errorsOf, type EngineContext } from '../context/index.js';
import { reconcileRead, checkConfig } from '../plan/index.js';

export class DataSources<C> {
  constructor(private readonly ctx: EngineContext<C>) {}

  dataSourceSchemas(): Map<string, Schema> {
    return this.ctx.dataSources.collect((d) => d.schema);
  }
  dataSourceSchema(typeName: string): Schema | undefined {
    return this.ctx.dataSources.get(typeName)?.schema;
  }

  validateDataResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    const d = this.ctx.dataSources.find(typeName, diags);
    if (!d) return diags;
    if (d.schema.deprecated !== undefined) diags.warning(`Data source ${typeName} is deprecated`, d.schema.deprecated);
    checkConfig(d, config, diags, { limits: this.ctx.def.limits });
    return diags;
  }

  async readDataSource(
    typeName: string,
    config: ObjectValue,
  ): Promise<{ state: ObjectValue | null; diags: Diagnostics }> {
    const diags = new Diagnostics();
    const d = this.ctx.dataSources.find(typeName, diags);
    if (!d) return { state: null, diags };
    if (diags.append(errorsOf(d, config, null, this.ctx.def.limits)).hasErrors) return { state: null, diags };
    try {
      const result = await d.read(toModel(d.schema.fields, config), this.ctx.operation(diags, {}, typeName));
      const fresh = fromModel(d.schema.fields, result, config);
      // Configured values stay exactly as configured; computed ones come from the API.
      const state = reconcileRead(d.schema.fields, config, fresh);
      for (const [name, v] of Object.entries(config)) {
        if (v !== null && d.schema.fields[name]?.kind === 'attr') state[name] = v;
      }
      return { state, diags };
    } catch (err) {
      diags.append([diagnosticFromError(`Cannot read data source ${typeName}`, err)]);
      return { state: null, diags };
    }
  }
}
