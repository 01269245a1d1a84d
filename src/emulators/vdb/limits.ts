/**
 * How much one request may ask of the vdb emulator: every count and size a request can set, with
 * its bound. Most come from the platform's request validation (the API's protovalidate rules,
 * docs/api/vdb.md, "Field bounds"). Where the platform publishes none, the emulator still refuses
 * what no real account gets, so an absurd request is answered with INVALID_ARGUMENT naming the
 * field and the bound instead of the emulator allocating for it (a cluster keeps one node entry per
 * node); each such bound is marked "chosen" and says why.
 */
export const LIMITS = {
  // --- documented by the platform's request validation -----------------------------------------
  /** page_size of every List call. */
  pageSize: 250,
  /**
   * Cluster labels, node selectors, annotations, pod labels, tolerations, topology constraints; environment node
   * selector and control-plane labels.
   */
  kubernetesEntries: 10,
  serviceAnnotations: 64,
  /** allowed_ip_source_ranges (v0.104 of the API; later versions allow 40). */
  ipSourceRanges: 20,
  accessRules: 20,
  keyValueKey: 253,
  keyValueValue: 1024,
  tolerationKey: 317,
  secretName: 253,
  secretKey: 1024,
  namespace: 253,
  /** container_registry_url and chart_repository_url. */
  repositoryUrl: 2048,
  clusterName: 64,
  environmentName: 64,
  roleName: 64,
  roleDescription: 256,
  databaseKeyName: 128,
  collectionName: 255,
  reservedPercentage: 80,

  // --- chosen: the platform publishes no bound ---------------------------------------------------
  /**
   * Chosen. Nodes per cluster: the platform caps them through an account quota whose value it does
   * not publish; 100 is far beyond any package's use and keeps the node list small.
   */
  nodes: 100,
  /** Chosen. Extra disk per node in GiB: 16 TiB, the largest single volume the major clouds offer. */
  additionalDiskGib: 16_384,
  /** Chosen. Replication and write consistency factors: more copies than nodes cannot be placed. */
  replicas: 100,
  /** Chosen. optimizer_cpu_budget, either sign: no node has more CPUs (the provider's bound too). */
  optimizerCpuBudget: 1024,
  /** Chosen. Kubernetes taint values are label values: at most 63 characters. */
  tolerationValue: 63,
  /** Chosen. topology_key is a node label key, which Kubernetes limits like a toleration key. */
  topologyKey: 317,
  /** Chosen. Provider and region ids: the platform's are short words (the provider's bound too). */
  placementId: 64,
  /** Chosen. `vX.Y.Z` or `latest`; a version string longer than this is no version. */
  version: 64,
  /** Chosen. Cron expressions and descriptors are short; 256 leaves room for long lists of values. */
  schedule: 256,
  /** Chosen. Hosts bypassing the proxy; an environment names a handful. */
  noProxyEntries: 100,
  /** Chosen. A host or domain name is at most 253 characters. */
  hostName: 253,
  /** Chosen. Proxy URLs, as long as the documented repository URLs. */
  proxyUrl: 2048,
  /** Chosen. A bundle of extra CA certificates (PEM); 64 KiB holds dozens. */
  caCertificates: 65_536,
  /** Chosen. Storage class names are Kubernetes object names. */
  storageClassName: 253,
  /** Chosen. Clusters one legacy key is attached to. */
  legacyKeyClusters: 100,
  /** Chosen. Permission entries of a role: the catalogue has fewer than 40, so more can only repeat them. */
  rolePermissions: 100,
  /** Chosen. A permission value such as `write:hybrid_cloud_environments` (the provider's bound too). */
  permissionValue: 128,
  /** Chosen. Role ids in one AssignUserRoles list. */
  assignedRoles: 100,
  /** Chosen. Status filters of ListPackages: there are only three statuses. */
  packageStatusFilters: 10,
  /**
   * gRPC's default maximum message, which the platform keeps for these methods (its method option
   * `max_message_size` overrides it nowhere in the API the provider uses). Bigger requests are
   * refused with RESOURCE_EXHAUSTED before they are decoded.
   */
  messageBytes: 4 * 1024 * 1024,
} as const;

/** At most this many violations are listed in one answer; the rest are counted. */
export const MAX_REPORTED_VIOLATIONS = 20;

/** At most this many characters of a client's value are quoted back in a message. */
export const MAX_QUOTED_CHARACTERS = 64;
