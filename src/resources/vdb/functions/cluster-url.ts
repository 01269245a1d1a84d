/**
 * A cluster's endpoint URL as the platform publishes it (docs/api/vdb.md, "Creating a cluster"):
 * `https://<cluster id>.<region>.<cloud>.vdb-cloud.example`, the REST API on port 443 and gRPC on 8443.
 */
import { FunctionArgumentError } from '@keel/provider-framework';

export const CLUSTER_DOMAIN = 'vdb-cloud.example';
export const PORTS = { rest: 443, grpc: 8443 } as const;

const HYBRID = ' (a hybrid cluster is reached inside its Kubernetes cluster, and has no region or cloud)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface ClusterUrl {
  readonly id: string;
  readonly region: string;
  readonly cloud: string;
  readonly host: string;
}

/** The parts of a cluster's endpoint URL; an error at argument `index` when it is not one. */
export function parseClusterUrl(text: string, index: number): ClusterUrl {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new FunctionArgumentError(index, `${JSON.stringify(text)} is not a URL`);
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol !== 'https:' || !host.endsWith(`.${CLUSTER_DOMAIN}`))
    throw new FunctionArgumentError(
      index,
      `${JSON.stringify(text)} is not a cluster endpoint: those are https://<cluster id>.<region>.<cloud>.` +
        `${CLUSTER_DOMAIN}${host.endsWith('.svc') ? HYBRID : ''}`,
    );
  const labels = host.slice(0, -CLUSTER_DOMAIN.length - 1).split('.');
  const [id = '', region = '', cloud = ''] = labels;
  if (labels.length !== 3 || !LABEL.test(region) || !LABEL.test(cloud))
    throw new FunctionArgumentError(
      index,
      `${JSON.stringify(text)} is not a cluster endpoint: its host should be ` +
        `<cluster id>.<region>.<cloud>.${CLUSTER_DOMAIN}`,
    );
  if (!UUID.test(id))
    throw new FunctionArgumentError(
      index,
      `${JSON.stringify(text)} is not a cluster endpoint: ${JSON.stringify(id)} is no cluster id`,
    );
  return { id, region, cloud, host };
}
