import { METRICS_BODIES, METRICS_DATASET } from '../../wire/sec-contract/metrics.js';
import { noContent, validate, type Router } from '../core/index.js';
import { API_PREFIX, type SecContext } from './context.js';

/** Store collection of the usage events received, keyed by `trace_id`. */
export const METRICS_COLLECTION = 'Metrics';
const BASE = `${API_PREFIX}/${METRICS_COLLECTION}`;
const eventSpec = METRICS_BODIES.Metrics!;

/** Usage events (which module of which version ran), as the platform's metrics endpoint takes them. */
export function registerMetricRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', `${BASE}/:dataset`, { body: eventSpec });
  router.add('POST', `${BASE}/:dataset`, (request) => {
    const dataset = request.params.dataset!;
    validate(METRICS_DATASET, dataset, 'dataset');
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
