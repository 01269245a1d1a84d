/**
 * What the gRPC server bounds, and why: the options its caller gives (message sizes, request bytes
 * buffered across the process, answer bytes waiting per connection, connections kept; and TLS), their
 * defaults, and the limits it sets on nghttp2, each with the reason for its value.
 */

export interface GrpcServerOptions {
  /** Largest request message accepted (RESOURCE_EXHAUSTED beyond). */
  maxReceiveMessageBytes: number;
  /** Largest response message sent (RESOURCE_EXHAUSTED beyond). */
  maxSendMessageBytes: number;
  /**
   * Request bytes buffered at once by all calls of the process; a call that would go beyond ends with
   * RESOURCE_EXHAUSTED, unless it is the only one buffering. Default: one message of the largest size.
   */
  maxBufferedRequestBytes?: number;
  /**
   * Answer bytes waiting for one connection's client to read them; beyond, that connection's new calls
   * wait to run until it has read (a client that never reads holds only its own calls). Default 16 MiB.
   */
  maxQueuedAnswerBytes?: number;
  /** Connections kept at once; a new one evicts one not yet serving, or the session idle longest. */
  maxConnections?: number;
  /**
   * TLS: our key and certificate; with `clientCaPem`, mutual TLS, where that is the only certificate
   * authority a client may present.
   */
  tls?: { keyPem: string; certPem: string; clientCaPem?: string };
}

/**
 * nghttp2's limits (Node's defaults in brackets). Terraform's go-plugin client keeps one connection
 * per provider process and sends small headers; everything here leaves it ample room.
 */
export const HTTP2_LIMITS = {
  /**
   * Request header bytes per stream (HPACK-decoded, 32 bytes per field counted, as RFC 9113 does)
   * [64 KiB]. Terraform's are under 1 KiB; grpc-js's clients allow 8 KiB of metadata. A larger block,
   * however well it compresses, resets its stream.
   */
  maxHeaderListSize: 16 * 1024,
  /** Header fields per stream [128]: Terraform sends about ten. */
  maxHeaderListPairs: 64,
  /**
   * Open streams per connection [unlimited]. Terraform opens one per call in flight (10 by default,
   * `-parallelism` raises it) plus two that stay open (stdio, broker); more wait in its client. A
   * stream holds its answer until the client reads it, so this also bounds what a client that does
   * not read holds of small answers.
   */
  maxConcurrentStreams: 256,
  /** Streams we may open to the peer [100]: we open none (no push), so it bounds nothing of ours. */
  peerMaxConcurrentStreams: 100,
  /**
   * What node lets a session hold, in MB [10], before it refuses every new stream (ENHANCE_YOUR_CALM):
   * nghttp2's state, unsent frames, and answers waiting for the client's flow-control window. At 10 MB,
   * ten answers of 1.5 MB that a client had not read yet, or the protocol fuzzer's megabyte answers,
   * got new calls refused; Terraform's states can be larger. What it would bound is bounded apart:
   * answers (maxQueuedAnswerBytes), headers (above), unsent PING and SETTINGS answers (nghttp2 ends a
   * session past 1,000), request bytes (maxBufferedRequestBytes). grpc-js's server sets no limit.
   */
  maxSessionMemory: 1024,
  /** Entries in one SETTINGS frame [32]: RFC 9113 defines six, and a client sends a few of them. */
  maxSettings: 16,
  /** Our PINGs not yet answered [10]: we send none. */
  maxOutstandingPings: 10,
  /** Streams refused (beyond the limit above) before the connection ends [100]. */
  maxSessionRejectedStreams: 100,
  /** Frames nghttp2 finds invalid (e.g. empty DATA without END_STREAM) before the connection ends [1,000]. */
  maxSessionInvalidFrames: 100,
  /** What the client may send a stream before it must wait for us to read it [64 KiB]. */
  initialWindowSize: 1024 * 1024,
} as const;
/** The connection's receive window (all streams together) [64 KiB]: large requests arrive at speed. */
export const CONNECTION_WINDOW_BYTES = 16 * 1024 * 1024;
/**
 * A connection must become a working HTTP/2 session (TLS handshake done, the client's preface and
 * SETTINGS received) this soon after it is accepted; Terraform's takes milliseconds.
 */
export const SESSION_START_TIMEOUT_MS = 10_000;
/**
 * Connections kept at once. Terraform keeps one per provider process and never lets it go, even when
 * idle for long (waiting on another provider's 30-minute create): no idle timeout closes it. Beyond
 * this cap the connection that is not yet a session, or else the session idle longest, is evicted.
 */
export const MAX_CONNECTIONS = 16;
export const MAX_QUEUED_ANSWER_BYTES = 16 * 1024 * 1024;
