/**
 * Shapes several services share: the API's common.v1 messages and google.protobuf.Duration. Enums are
 * the proto value names, in proto order, UNSPECIFIED first (test/clients/vdb-enums.test.ts holds them to
 * the .proto files).
 */

export const WHEN_UNSATISFIABLE_VALUES = [
  'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_UNSPECIFIED',
  'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE',
  'TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_SCHEDULE_ANYWAY',
] as const;
export type WhenUnsatisfiable = (typeof WHEN_UNSATISFIABLE_VALUES)[number];

export const STORAGE_TIER_TYPES = [
  'STORAGE_TIER_TYPE_UNSPECIFIED',
  'STORAGE_TIER_TYPE_COST_OPTIMISED',
  'STORAGE_TIER_TYPE_BALANCED',
  'STORAGE_TIER_TYPE_PERFORMANCE',
] as const;
export type StorageTierType = (typeof STORAGE_TIER_TYPES)[number];

/** google.protobuf.Duration, exact. */
export interface ProtoDuration {
  readonly seconds: number;
  /** 0–999 999 999, same sign as seconds. */
  readonly nanos: number;
}

export interface KeyValue {
  readonly key: string;
  readonly value: string;
}

/** A key inside a Kubernetes secret. */
export interface SecretKeyRef {
  readonly name: string;
  readonly key: string;
}

export interface TopologySpreadConstraint {
  readonly maxSkew?: number | undefined;
  readonly topologyKey: string;
  readonly whenUnsatisfiable?: WhenUnsatisfiable | undefined;
}
