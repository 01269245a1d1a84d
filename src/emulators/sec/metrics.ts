import { field, invalid, noContent, quote, validate, type Router } from '../core/index.js';
import { API_PREFIX, type SecContext } from './context.js';

/** Store collection of the usage events received, keyed by `trace_id`. */
export const METRICS_COLLECTION = 'Metrics';
const BASE = `${API_PREFIX}/${METRICS_COLLECTION}`;
/** Lower-case letters, digits and `-`. */
const DATASET = /^[a-z0-9][a-z0-9-]{0,63}$/;

const eventSpec = field.object({
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
});

/** Usage events (which module of which version ran), as the platform's metrics endpoint takes them. */
export function registerMetricRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', `${BASE}/:dataset`, { body: eventSpec });
  router.add('POST', `${BASE}/:dataset`, (request) => {
    const dataset = request.params.dataset!;
    if (!DATASET.test(dataset))
      throw invalid(`dataset must be lower-case letters, digits and "-" (got ${quote(dataset)})`);
    validate(eventSpec, request.body, 'body');
    const event = request.body as { trace_id: string };
    ctx.store.put(METRICS_COLLECTION, event.trace_id, {
      ...(request.body as object),
      dataset,
      receivedTime: ctx.clock.nowIso(),
    });
    return noContent();
  });
}
