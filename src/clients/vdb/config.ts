/** How a vdb client is configured, and the options every call accepts (./api.ts says what calls do). */
import type { HostGate } from '../host-gate.js';

/** Per-call options every method accepts. */
export interface VdbCallOptions {
  /** Cancels the call and any pending retry (ApiError 'cancelled'). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Deadline of the whole call including retries (ApiError 'timeout'; 'outcome_unknown' when it
   * passes while a create is out); default: the client's.
   */
  readonly timeoutMs?: number | undefined;
}

/** Debug-level request summaries (method, gRPC status, attempt, duration, trace id); never metadata or bodies. */
export interface VdbLogger {
  debug(message: string, fields?: object): void;
}

export interface VdbClientConfig {
  /**
   * `host:port` or `host` (TLS, port 443), `https://host[:port]` (TLS), or `http://<loopback>:port`
   * (plaintext, emulators only). Anything else is refused with ApiError 'invalid'.
   */
  readonly apiUrl: string;
  /** The management API key, sent as `authorization: apikey <key>` on every call. */
  readonly apiKey: string;
  /** Skip certificate verification (TLS is still used). */
  readonly insecure?: boolean | undefined;
  /** Deadline of one call including retries; default 60 s. */
  readonly timeoutMs?: number | undefined;
  /** e.g. `terraform-provider-vdb/1.19.2`. */
  readonly userAgent: string;
  readonly logger?: VdbLogger | undefined;
  /** Overrides the retry budget and backoff (tests use short delays). */
  readonly retry?: Partial<VdbRetryPolicy> | undefined;
  /**
   * How long a changing call already sent may finish after Terraform asks to stop; default 30 s (src/clients/stop.ts).
   */
  readonly stopGraceMs?: number | undefined;
  /**
   * Where the proxy variables (HTTPS_PROXY, NO_PROXY, ...: ../proxy.ts) and the trust's (SSL_CERT_FILE,
   * NODE_EXTRA_CA_CERTS, GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, ...: ../trust.ts) are read; default process.env.
   */
  readonly environment?: NodeJS.ProcessEnv | undefined;
  /** The back-off every call of this client waits on (../host-gate.ts); default a gate of its own. */
  readonly gate?: HostGate | undefined;
}

export interface VdbRetryPolicy {
  /** Total attempts including the first. Default 8 (the waits stay well inside the call's deadline). */
  readonly maxAttempts: number;
  /** Delay ceiling before the second attempt; doubles each time (equal jitter, ../backoff.ts). Default 250 ms. */
  readonly baseDelayMs: number;
  /** Cap for one delay, including a server's `retry-after`. Default 5 s. */
  readonly maxDelayMs: number;
}

/** 8 attempts for the same reason as the sec client's (src/clients/sec/retry.ts); waits total about 18 s. */
export const DEFAULT_RETRY_POLICY: VdbRetryPolicy = { maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 5_000 };
