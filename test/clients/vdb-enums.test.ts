/**
 * The vdb client's enum lists (CLUSTER_PHASES, …) are written by hand, so that the resources can name
 * their values without loading protobufjs; this holds each one to its enum in the .proto files: the
 * same values, in proto order. Every list the client exports must be named here, so that a new one
 * cannot go unchecked.
 */
import { expect } from 'chai';
import type protobuf from 'protobufjs';
import * as api from '../../src/clients/vdb/api.js';
import { findProtoSourceDir } from '../../src/proto-location.js';
import { loadFromProtoDir } from '../../src/wire/vdb-proto.js';

/** Each list of the client → the full name of its enum in proto/vdb. */
const ENUM_OF_LIST: Readonly<Record<string, string>> = {
  CLUSTER_PHASES: 'vdb.cloud.cluster.v1.ClusterPhase',
  CLUSTER_NODE_STATES: 'vdb.cloud.cluster.v1.ClusterNodeState',
  CLUSTER_SCALABILITY_STATUSES: 'vdb.cloud.cluster.v1.ClusterScalabilityStatus',
  CLUSTER_SERVICE_TYPES: 'vdb.cloud.cluster.v1.ClusterServiceType',
  CLUSTER_GPU_TYPES: 'vdb.cloud.cluster.v1.ClusterConfigurationGpuType',
  CLUSTER_RESTART_POLICIES: 'vdb.cloud.cluster.v1.ClusterConfigurationRestartPolicy',
  CLUSTER_REBALANCE_STRATEGIES: 'vdb.cloud.cluster.v1.ClusterConfigurationRebalanceStrategy',
  DATABASE_LOG_LEVELS: 'vdb.cloud.cluster.v1.DatabaseConfigurationLogLevel',
  TOLERATION_OPERATORS: 'vdb.cloud.cluster.v1.TolerationOperator',
  TOLERATION_EFFECTS: 'vdb.cloud.cluster.v1.TolerationEffect',
  WHEN_UNSATISFIABLE_VALUES: 'vdb.cloud.common.v1.TopologySpreadConstraintWhenUnsatisfiable',
  STORAGE_TIER_TYPES: 'vdb.cloud.common.v1.StorageTierType',
  GLOBAL_ACCESS_TYPES: 'vdb.cloud.cluster.auth.v2.GlobalAccessRuleAccessType',
  COLLECTION_ACCESS_TYPES: 'vdb.cloud.cluster.auth.v2.CollectionAccessRuleAccessType',
  BACKUP_SCHEDULE_STATUSES: 'vdb.cloud.cluster.backup.v1.BackupScheduleStatus',
  BACKUP_STATUSES: 'vdb.cloud.cluster.backup.v1.BackupStatus',
  HYBRID_LOG_LEVELS: 'vdb.cloud.hybrid.v1.HybridCloudEnvironmentConfigurationLogLevel',
  HYBRID_STATUS_PHASES: 'vdb.cloud.hybrid.v1.HybridCloudEnvironmentStatusPhase',
  HYBRID_COMPONENT_PHASES: 'vdb.cloud.hybrid.v1.HybridCloudEnvironmentComponentStatusPhase',
  CLUSTER_CREATION_STATUSES: 'vdb.cloud.hybrid.v1.ClusterCreationStatus',
  KUBERNETES_DISTRIBUTIONS: 'vdb.cloud.hybrid.v1.KubernetesDistribution',
  PACKAGE_STATUSES: 'vdb.cloud.booking.v1.PackageStatus',
  PACKAGE_TIERS: 'vdb.cloud.booking.v1.PackageTier',
  ROLE_TYPES: 'vdb.cloud.iam.v1.RoleType',
  SYSTEM_ROLE_SUB_TYPES: 'vdb.cloud.iam.v1.SystemRoleSubType',
  USER_STATUSES: 'vdb.cloud.iam.v1.UserStatus',
};

/** The client's exported lists of value names. */
const lists = Object.entries(api as Record<string, unknown>).filter(
  (entry): entry is [string, readonly string[]] =>
    Array.isArray(entry[1]) && entry[1].every((value: unknown) => typeof value === 'string'),
);

/** The enum's value names in number order. */
function protoValues(protoEnum: protobuf.Enum): string[] {
  return Object.entries(protoEnum.values)
    .sort(([, a], [, b]) => a - b)
    .map(([name]) => name);
}

/** What is wrong with a hand list against its enum's values, or undefined when it is the same list. */
function mismatch(
  list: string,
  enumName: string,
  hand: readonly string[],
  proto: readonly string[],
): string | undefined {
  const missing = proto.filter((value) => !hand.includes(value));
  const extra = hand.filter((value) => !proto.includes(value));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      extra.length > 0 ? `extra ${extra.join(', ')} (not in the .proto)` : '',
    ];
    return `${list} does not hold the values of ${enumName}: ${parts.filter(Boolean).join('; ')}`;
  }
  if (hand.some((value, i) => value !== proto[i])) {
    return `${list} is not in the order of ${enumName}: ${proto.join(', ')}`;
  }
  return undefined;
}

describe('vdb client enum lists against the .proto', () => {
  const protoDir = findProtoSourceDir('vdb', [process.cwd()]);
  if (!protoDir) throw new Error('no proto/vdb above the working directory');
  const root = loadFromProtoDir(protoDir);
  root.resolveAll();

  it('names the enum of every list the client exports', () => {
    const unnamed = lists.map(([name]) => name).filter((name) => !(name in ENUM_OF_LIST));
    const gone = Object.keys(ENUM_OF_LIST).filter((name) => !lists.some(([listed]) => listed === name));
    expect(
      unnamed.map(
        (name) =>
          `${name} is a list the vdb client exports with no entry in ENUM_OF_LIST in test/clients/vdb-enums.test.ts; ` +
          `add ${name}: '<package>.<Enum>' (the full name of its enum in proto/vdb)`,
      ),
      'lists with no enum named in ENUM_OF_LIST',
    ).to.deep.equal([]);
    expect(gone, 'names in ENUM_OF_LIST the client no longer exports').to.deep.equal([]);
  });

  for (const [list, enumName] of Object.entries(ENUM_OF_LIST)) {
    it(`${list} is ${enumName}, value for value`, () => {
      const hand = lists.find(([name]) => name === list)?.[1] ?? [];
      const problem = mismatch(list, enumName, hand, protoValues(root.lookupEnum(enumName)));
      // The whole sentence, which chai would cut short in its own message.
      if (problem !== undefined) expect.fail(problem);
    });
  }

  it('a list that lacks a value, has one too many, or is out of order is refused, naming them', () => {
    const proto = protoValues(root.lookupEnum('vdb.cloud.iam.v1.RoleType'));
    expect(proto).to.deep.equal(['ROLE_TYPE_UNSPECIFIED', 'ROLE_TYPE_SYSTEM', 'ROLE_TYPE_CUSTOM']);
    const check = (hand: string[]) => mismatch('ROLE_TYPES', 'vdb.cloud.iam.v1.RoleType', hand, proto);
    expect(check(['ROLE_TYPE_UNSPECIFIED', 'ROLE_TYPE_SYSTEM', 'ROLE_TYPE_ADMIN'])).to.equal(
      'ROLE_TYPES does not hold the values of vdb.cloud.iam.v1.RoleType: missing ROLE_TYPE_CUSTOM; ' +
        'extra ROLE_TYPE_ADMIN (not in the .proto)',
    );
    expect(check(['ROLE_TYPE_UNSPECIFIED', 'ROLE_TYPE_CUSTOM', 'ROLE_TYPE_SYSTEM'])).to.equal(
      'ROLE_TYPES is not in the order of vdb.cloud.iam.v1.RoleType: ' +
        'ROLE_TYPE_UNSPECIFIED, ROLE_TYPE_SYSTEM, ROLE_TYPE_CUSTOM',
    );
  });
});
