// go-plugin handshake, server side (docs/protocol.md, "The handshake line").
import type { Logger } from './log.js';
import { handshakeCertField } from './tls.js';

export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
export const CORE_PROTOCOL_VERSION = 1;
export const APP_PROTOCOL_VERSION = 6;

export function hasMagicCookie(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[MAGIC_COOKIE_KEY] === MAGIC_COOKIE_VALUE;
}

/** What a person running the binary by hand sees (stderr; exit 1), like go-plugin. */
export function notAPluginHostMessage(binary: string, version: string): string {
  return (
    `${binary} ${version} is a Terraform provider plugin.\n` +
    `It is not meant to be run directly: Terraform (or another plugin host) starts it.\n` +
    `Options: --version prints the version; --debug runs it for TF_REATTACH_PROVIDERS.\n`
  );
}

export type Negotiation = { ok: true; version: number } | { ok: false; offered: number[]; message: string };

/**
 * Picks the app protocol version from PLUGIN_PROTOCOL_VERSIONS. As in go-plugin,
 * an absent/empty list means "use ours" (6); unparsable entries are skipped.
 * We speak 6 only, so a list without 6 is an error.
 */
export function negotiateProtocol(binary: string, env: NodeJS.ProcessEnv = process.env): Negotiation {
  const raw = env.PLUGIN_PROTOCOL_VERSIONS ?? '';
  if (raw.trim() === '') return { ok: true, version: APP_PROTOCOL_VERSION };
  const offered = raw
    .split(',')
    .map((s) => Number.parseInt(s.trim(), 10))
    .filter((n) => Number.isInteger(n));
  if (offered.includes(APP_PROTOCOL_VERSION)) return { ok: true, version: APP_PROTOCOL_VERSION };
  const list = offered.length ? offered.join(', ') : `none (got "${raw}")`;
  return {
    ok: false,
    offered,
    // No '|' inside: the host shows a line with < 4 '|' fields verbatim as
    // "Unrecognized remote plugin message: ..."
    // (docs/protocol.md, "Refusing to start"), which is the one place a plugin
    // can put a message in front of the user.
    message:
      `${binary} needs plugin protocol version ${APP_PROTOCOL_VERSION} (Terraform 1.0 or later), ` +
      `but the host offered protocol version(s) ${list}. Upgrade Terraform to use this provider.`,
  };
}

/** `1|6|tcp|127.0.0.1:PORT|grpc|<cert>` plus newline; cert field empty without TLS. */
export function handshakeLine(address: string, certDer: Uint8Array | null, network = 'tcp'): string {
  const cert = certDer ? handshakeCertField(certDer) : '';
  return `${CORE_PROTOCOL_VERSION}|${APP_PROTOCOL_VERSION}|${network}|${address}|grpc|${cert}\n`;
}

export interface ReattachEntry {
  Protocol: 'grpc';
  ProtocolVersion: number;
  Pid: number;
  Test: boolean;
  Addr: { Network: string; String: string };
}

/**
 * TF_REATTACH_PROVIDERS value for one provider; Test true so Terraform never stops it
 * (docs/protocol.md, "Debug mode and TF_REATTACH_PROVIDERS").
 */
export function reattachConfig(sourceAddress: string, address: string, pid: number): Record<string, ReattachEntry> {
  return {
    [sourceAddress]: {
      Protocol: 'grpc',
      ProtocolVersion: APP_PROTOCOL_VERSION,
      Pid: pid,
      Test: true,
      Addr: { Network: 'tcp', String: address },
    },
  };
}

export function debugInstructions(sourceAddress: string, address: string, pid: number): string {
  const json = JSON.stringify(reattachConfig(sourceAddress, address, pid));
  return (
    `Provider ${sourceAddress} is running in debug mode (plaintext gRPC on ${address}, pid ${pid}).\n` +
    `Point Terraform at it by setting TF_REATTACH_PROVIDERS in the shell that runs terraform:\n\n` +
    `\tBash/Zsh:\texport TF_REATTACH_PROVIDERS='${json}'\n` +
    `\tPowerShell:\t$env:TF_REATTACH_PROVIDERS='${json}'\n\n` +
    `Press Ctrl-C (or send SIGTERM) to stop it.\n`
  );
}

/**
 * After the handshake nothing may reach stdout (docs/protocol.md, "Stdout after the handshake":
 * go-plugin drains and discards it, and a stray write before the handshake breaks start-up). Any
 * later stdout write or console.log/info/debug goes to the stderr log instead.
 */
export function guardStdout(log: Logger): void {
  const divert = (text: string) => {
    const trimmed = text.replace(/\n$/, '');
    if (trimmed !== '') log.warn('stray stdout output diverted to the log', { output: trimmed });
  };
  const write = (chunk: unknown, encoding?: unknown, cb?: unknown): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    divert(text);
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  };
  process.stdout.write = write as typeof process.stdout.write;
  const consoleToLog = (...args: unknown[]) =>
    divert(args.map((a) => (typeof a === 'string' ? a : safeInspect(a))).join(' '));
  console.log = consoleToLog;
  console.info = consoleToLog;
  console.debug = consoleToLog;
}

function safeInspect(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
