import { HttpError, noContent, type Router } from '../core/index.js';
import { ALERT_CHANNEL_DATA_SPECS } from './alert-channel-types.js';
import { API_PREFIX, SEC_COLLECTIONS, type SecContext } from './context.js';
import { findIntegration, registerIntegrationRoutes, type IntegrationFamily } from './integrations.js';

export const ALERT_CHANNELS: IntegrationFamily = {
  collection: SEC_COLLECTIONS.alertChannels,
  label: 'alert channel',
  dataSpecs: ALERT_CHANNEL_DATA_SPECS,
};

/**
 * Any data string containing this marker makes the channel's test fail, so tests can exercise
 * the provider's rollback without calling `failChannelTest`.
 */
export const TEST_FAILURE_MARKER = 'fail-test';

export function registerAlertChannelRoutes(router: Router, ctx: SecContext): void {
  registerIntegrationRoutes(router, ctx, ALERT_CHANNELS);

  router.add('POST', `${API_PREFIX}/${ALERT_CHANNELS.collection}/:intgGuid/test`, (request) => {
    const channel = findIntegration(ctx, ALERT_CHANNELS, request.params.intgGuid!);
    const now = ctx.clock.now();
    const failure = ctx.channelTestFailures.get(channel.intgGuid) ?? markerFailure(channel.data);
    channel.state = failure
      ? { ...channel.state, ok: false, lastUpdatedTime: now, details: { message: failure } }
      : { ok: true, lastUpdatedTime: now, lastSuccessfulTime: now, details: {} };
    ctx.store.put(ALERT_CHANNELS.collection, channel.intgGuid, channel);
    if (failure) throw new HttpError(400, failure);
    return noContent();
  });
}

/** Names the field (never its value, which may be a secret) that carries the failure marker. */
function markerFailure(data: unknown, path = 'data'): string | undefined {
  if (typeof data === 'string') {
    return data.toLowerCase().includes(TEST_FAILURE_MARKER)
      ? `test notification failed: the destination in ${path} rejected the request`
      : undefined;
  }
  if (Array.isArray(data)) {
    for (const [index, item] of data.entries()) {
      const found = markerFailure(item, `${path}[${index}]`);
      if (found) return found;
    }
  } else if (typeof data === 'object' && data !== null) {
    for (const [key, item] of Object.entries(data)) {
      const found = markerFailure(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
