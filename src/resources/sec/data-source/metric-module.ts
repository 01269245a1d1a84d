/**
 * `sec_metric_module`: tells the platform that a Terraform module of a given version ran (a usage
 * event, as the platform's own modules send). `SEC_TELEMETRY_DISABLE` (set to anything) turns the
 * sending off; the data source then only makes its id.
 */
import { attr, dataSource, resourceSchema, validators } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import { SEC_VERSION } from '../version.js';

const schema = resourceSchema(
  {
    id: attr.computedId('The trace id of the usage event (new on every read).'),
    name: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'The name of the module that ran.',
    }),
    version: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'The version of the module that ran.',
    }),
  },
  {
    description:
      'Reports to the platform that a module of a given version ran (a usage event, as the ' +
      "platform's own modules send). Set `SEC_TELEMETRY_DISABLE` (to anything) in the environment to " +
      'send nothing.',
  },
);

export default dataSource<typeof schema.fields, SecClient>({
  typeName: 'sec_metric_module',
  schema,
  async read(config, ctx) {
    const { traceId } = await ctx.client.metrics.send(
      { feature: config.name, version: config.version, providerVersion: SEC_VERSION },
      { signal: ctx.signal },
    );
    return { id: traceId };
  },
});
