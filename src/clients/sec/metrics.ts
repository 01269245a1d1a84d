import { arch, platform } from 'node:os';
import { randomBytes } from 'node:crypto';
import { segment, type CallOptions, type SecHttp } from './http.js';

/** Set (to anything) to send no usage events: the data source then only makes its id. */
export const TELEMETRY_DISABLE_ENV = 'SEC_TELEMETRY_DISABLE';
/** The data set the provider's usage events go to. */
export const TERRAFORM_DATASET = 'sec-terraform';

export interface MetricEvent {
  /** The version of what ran (a module's version). */
  readonly version: string;
  /** What ran (a module's name). */
  readonly feature: string;
  readonly providerVersion: string;
}

export interface MetricsApi {
  /**
   * Sends one usage event; returns its trace id. Nothing is sent when telemetry is disabled
   * (`SEC_TELEMETRY_DISABLE`); the trace id is made all the same.
   */
  send(
    event: MetricEvent,
    options?: CallOptions & { readonly env?: Readonly<Record<string, string | undefined>> },
  ): Promise<{ traceId: string; sent: boolean }>;
}

const BASE = '/api/v2/Metrics';

export function metricsApi(http: SecHttp, account: string, subaccount: string | undefined): MetricsApi {
  return {
    async send(event, options = {}) {
      const traceId = randomBytes(16).toString('hex');
      const env = options.env ?? process.env;
      if (env[TELEMETRY_DISABLE_ENV]) return { traceId, sent: false };
      const body = {
        version: event.version,
        config_version: 1,
        os: platform(),
        arch: arch(),
        account,
        ...(subaccount ? { subaccount } : {}),
        trace_id: traceId,
        feature: event.feature,
        dataset: TERRAFORM_DATASET,
        'feature.data': { provider_version: event.providerVersion },
        sample_rate_100: true,
        telemetry_source: 'external',
        telemetry_type: 'customer',
      };
      const path = `${BASE}/${segment(TERRAFORM_DATASET)}`;
      // The event carries its trace id, so the platform records a repeat once: safe to send again.
      await http.empty({ method: 'POST', path, operation: `POST ${BASE}/{dataset}`, body, idempotent: true }, options);
      return { traceId, sent: true };
    },
  };
}
