import { field, type ContractBodies } from './language.js';

/**
 * The dataset a usage event is filed under, the last segment of its path (POST /api/v2/Metrics/:dataset):
 * not a body, so not among the bodies, but a rule of the platform all the same.
 */
export const METRICS_DATASET = field.string({
  pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  patternRule: 'lower-case letters, digits and "-", not starting with "-", at most 64 characters',
});

/** The request body of a usage event (which module of which version ran). */
export const METRICS_BODIES: ContractBodies = {
  Metrics: field.object({
    version: field.string({ maxLength: 128 }),
    config_version: field.integer({ optional: true, min: 0, max: 1000 }),
    os: field.string({ optional: true, allowEmpty: true, maxLength: 64 }),
    arch: field.string({ optional: true, allowEmpty: true, maxLength: 64 }),
    account: field.string({ optional: true, allowEmpty: true }),
    subaccount: field.string({ optional: true, allowEmpty: true }),
    trace_id: field.string({ maxLength: 128 }),
    feature: field.string({ maxLength: 256 }),
    dataset: field.string({ optional: true }),
    // What the feature reports about itself.
    'feature.data': field.object(
      { provider_version: field.string({ optional: true, maxLength: 128 }) },
      { optional: true },
    ),
    sample_rate_100: field.boolean({ optional: true }),
    telemetry_source: field.string({ optional: true }),
    telemetry_type: field.string({ optional: true }),
  }),
};
