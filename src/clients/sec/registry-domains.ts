// Registry hosts the resource definitions need at start-up, apart from the client's zod schemas
// (./container-registries.ts), which load only once the provider is configured.

/** Hosts a RegistryB integration may name (exact match). */
export const REGISTRY_B_DOMAINS = [
  ...[
    'northamerica-northeast1',
    'us-central1',
    'us-east1',
    'us-east4',
    'us-west1',
    'us-west2',
    'us-west3',
    'us-west4',
    'southamerica-east1',
    'europe-north1',
    'europe-west1',
    'europe-west2',
    'europe-west3',
    'europe-west4',
    'europe-west6',
    'asia-east1',
    'asia-east2',
    'asia-northeast1',
    'asia-northeast2',
    'asia-northeast3',
    'asia-south1',
    'asia-southeast1',
    'asia-southeast2',
    'australia-southeast1',
  ].map((region) => `${region}-docker.pkg.dev`),
  'asia-docker.pkg.dev',
  'europe-docker.pkg.dev',
  'us-docker.pkg.dev',
] as const;

/** Hosts a RegistryC integration may name. */
export const REGISTRY_C_DOMAINS = ['gcr.io', 'us.gcr.io', 'eu.gcr.io', 'asia.gcr.io'] as const;

/** The fixed hosts of RegistryD and RegistryF; the client sends them, users never choose them. */
export const REGISTRY_D_DOMAIN = 'index.docker.io';
export const REGISTRY_F_DOMAIN = 'ghcr.io';
