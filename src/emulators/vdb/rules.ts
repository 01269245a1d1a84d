/**
 * Field rules of the vdb management API (docs/api/vdb.md, "Validation errors"), written as checks
 * that add protovalidate-style violations. Paths are proto field paths such as
 * `cluster.configuration.number_of_nodes`.
 */
import type { Duration, KeyValue, Toleration, TopologySpreadConstraint } from './records.js';
import { durationToNanos } from '../../wire/go-duration.js';
import type { Violations } from './errors.js';
import { LIMITS } from './limits.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const IPV4_CIDR = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\/(3[0-2]|[12]?\d)$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function uuid(v: Violations, path: string, value: string | undefined): void {
  if (value === undefined || value === '')
    v.add(path, 'value is empty, which is not a valid UUID', 'string.uuid_empty');
  else if (!isUuid(value)) v.add(path, 'value must be a valid UUID', 'string.uuid');
}

export function length(v: Violations, path: string, value: string, min: number, max: number): void {
  const count = [...value].length;
  if (count < min) v.add(path, `value length must be at least ${min} characters`, 'string.min_len');
  else if (count > max) v.add(path, `value length must be at most ${max} characters`, 'string.max_len');
}

export function pattern(v: Violations, path: string, value: string, regex: RegExp): void {
  if (!regex.test(value)) v.add(path, `value does not match regex pattern \`${regex.source}\``, 'string.pattern');
}

export function mustBeEmpty(v: Violations, path: string, value: unknown): void {
  const set = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '';
  if (set) v.add(path, 'value must be empty: the field is set by the server', 'read_only');
}

export function maxItems(v: Violations, path: string, items: readonly unknown[] | undefined, max: number): void {
  if ((items?.length ?? 0) > max) v.add(path, `value must contain no more than ${max} item(s)`, 'repeated.max_items');
}

export function minItems(v: Violations, path: string, items: readonly unknown[] | undefined, min: number): void {
  if ((items?.length ?? 0) < min) v.add(path, `value must contain at least ${min} item(s)`, 'repeated.min_items');
}

/** Optional enums must not be sent with their zero value. */
export function enumSet(v: Violations, path: string, value: string | undefined): void {
  if (value?.endsWith('_UNSPECIFIED')) v.add(path, 'value must not be in list [0]', 'enum.not_in');
}

export function required(v: Violations, path: string, value: unknown): boolean {
  if (value === undefined) {
    v.add(path, 'value is required', 'required');
    return false;
  }
  return true;
}

export function range(
  v: Violations,
  path: string,
  value: number | undefined,
  min: number,
  max: number,
  kind = 'uint32',
): void {
  if (value === undefined) return;
  if (value < min || value > max) {
    v.add(path, `value must be greater than or equal to ${min} and less than or equal to ${max}`, `${kind}.gte_lte`);
  }
}

export function keyValues(v: Violations, path: string, items: readonly KeyValue[] | undefined, max: number): void {
  maxItems(v, path, items, max);
  (items ?? []).forEach((item, i) => {
    const at = `${path}[${i}]`;
    if (item.key === '') v.add(`${at}.key`, 'value length must be at least 1 characters', 'string.min_len');
    else if ([...item.key].length > LIMITS.keyValueKey) length(v, `${at}.key`, item.key, 1, LIMITS.keyValueKey);
    else if (!LABEL_KEY.test(item.key))
      v.add(`${at}.key`, 'value must be a valid Kubernetes label key', 'string.k8s_label_key');
    length(v, `${at}.value`, item.value, 0, LIMITS.keyValueValue);
  });
}

export function secretKeyRef(v: Violations, path: string, ref: { name: string; key: string } | undefined): void {
  if (!ref) return;
  if ([...ref.name].length > LIMITS.secretName) length(v, `${path}.name`, ref.name, 1, LIMITS.secretName);
  else if (ref.name === '' || !DNS_SUBDOMAIN.test(ref.name))
    v.add(`${path}.name`, 'value must be a valid Kubernetes secret name', 'string.k8s_name');
  length(v, `${path}.key`, ref.key, 1, LIMITS.secretKey);
}

export function tolerations(v: Violations, path: string, items: readonly Toleration[] | undefined): void {
  maxItems(v, path, items, LIMITS.kubernetesEntries);
  (items ?? []).forEach((t, i) => {
    const at = `${path}[${i}]`;
    enumSet(v, `${at}.operator`, t.operator);
    enumSet(v, `${at}.effect`, t.effect);
    const key = t.key ?? '';
    if ([...key].length > LIMITS.tolerationKey) length(v, `${at}.key`, key, 0, LIMITS.tolerationKey);
    else if (key !== '' && !LABEL_KEY.test(key))
      v.add(`${at}.key`, 'value must be a valid Kubernetes qualified name', 'string.k8s_qualified_name');
    length(v, `${at}.value`, t.value ?? '', 0, LIMITS.tolerationValue);
    const exists = t.operator === 'TOLERATION_OPERATOR_EXISTS';
    if (exists && (t.value ?? '') !== '')
      v.add(at, 'value must be empty when operator is Exists', 'toleration.exists_no_value');
    if (!exists && (t.value ?? '') === '')
      v.add(at, 'value is required when operator is Equal or unset', 'toleration.equal_value');
    if (key === '' && !exists) v.add(at, 'an empty key requires operator Exists', 'toleration.empty_key_exists');
    if (t.tolerationSeconds !== undefined && t.effect !== 'TOLERATION_EFFECT_NO_EXECUTE') {
      v.add(at, 'toleration_seconds is only allowed with effect NoExecute', 'toleration.seconds_no_execute');
    }
  });
}

export function topologySpreadConstraints(
  v: Violations,
  path: string,
  items: readonly TopologySpreadConstraint[] | undefined,
): void {
  maxItems(v, path, items, LIMITS.kubernetesEntries);
  (items ?? []).forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (c.maxSkew !== undefined && c.maxSkew <= 0) v.add(`${at}.max_skew`, 'value must be greater than 0', 'int32.gt');
    length(v, `${at}.topology_key`, c.topologyKey, 1, LIMITS.topologyKey);
    enumSet(v, `${at}.when_unsatisfiable`, c.whenUnsatisfiable);
  });
}

export function ipv4Cidrs(v: Violations, path: string, items: readonly string[] | undefined, max: number): void {
  maxItems(v, path, items, max);
  (items ?? []).forEach((item, i) => {
    // No CIDR is longer than 18 characters: anything longer is refused without being matched.
    if (item.length > 18 || !IPV4_CIDR.test(item))
      v.add(`${path}[${i}]`, 'value must be a valid IPv4 prefix (CIDR)', 'string.ipv4_prefix');
  });
}

export function dnsLabel(v: Violations, path: string, value: string, max: number): void {
  if (value === '') v.add(path, 'value is required', 'required');
  else if ([...value].length > max) length(v, path, value, 1, max);
  else if (!DNS_LABEL.test(value))
    v.add(path, 'value must be a valid DNS label (lower-case letters, digits, -)', 'string.dns_label');
}

export const SECONDS_PER_DAY = 86_400;

/** A retention period: 1 day to 365 days inclusive. */
export function retention(v: Violations, path: string, value: Duration | undefined): void {
  if (value === undefined) return;
  const nanos = durationToNanos(value);
  if (nanos < BigInt(SECONDS_PER_DAY) * 1_000_000_000n || nanos > BigInt(365 * SECONDS_PER_DAY) * 1_000_000_000n) {
    v.add(
      path,
      `value must be greater than or equal to ${SECONDS_PER_DAY}s and less than or equal to ${365 * SECONDS_PER_DAY}s`,
      'duration.gte_lte',
    );
  }
}

export function uri(v: Violations, path: string, value: string | undefined): void {
  if (value === undefined || value === '') return;
  try {
    const url = new URL(value);
    if (!/^[a-z][a-z0-9+.-]*:$/.test(url.protocol) || url.hostname === '') throw new Error('no host');
  } catch {
    v.add(path, 'value must be a valid URI', 'string.uri');
  }
}
