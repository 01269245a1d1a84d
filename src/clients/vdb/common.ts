/**
 * Shapes several services share: the API's common.v1 messages and google.protobuf.Duration, from the
 * .proto files (./messages.ts). Enums are the proto value names, in proto order, UNSPECIFIED first.
 */
import { type Answered, VDB_ENUMS, type VdbDuration, type VdbEnum } from './messages.js';

export const WHEN_UNSATISFIABLE_VALUES = VDB_ENUMS['common.v1.TopologySpreadConstraintWhenUnsatisfiable'];
export type WhenUnsatisfiable = VdbEnum<'common.v1.TopologySpreadConstraintWhenUnsatisfiable'>;

export const STORAGE_TIER_TYPES = VDB_ENUMS['common.v1.StorageTierType'];
export type StorageTierType = VdbEnum<'common.v1.StorageTierType'>;

/** google.protobuf.Duration, exact: nanos 0–999 999 999, of the same sign as seconds. */
export type ProtoDuration = VdbDuration;

export type KeyValue = Answered<'common.v1.KeyValue'>;

/** A key inside a Kubernetes secret. */
export type SecretKeyRef = Answered<'common.v1.SecretKeyRef'>;

export type TopologySpreadConstraint = Answered<'common.v1.TopologySpreadConstraint'>;
