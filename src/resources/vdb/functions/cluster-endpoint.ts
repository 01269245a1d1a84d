/**
 * `provider::vdb::cluster_endpoint(url, protocol)`: where a client of the database reaches a cluster,
 * by REST or gRPC, from its endpoint URL: the address a client library takes, port included.
 */
import { FunctionArgumentError, ownEntry, providerFunction, STRING } from '@keel/provider-framework';
import { PORTS, parseClusterUrl } from './cluster-url.js';

export default providerFunction({
  name: 'cluster_endpoint',
  summary: "A cluster's REST or gRPC endpoint, from its endpoint URL",
  description:
    'The address a database client connects to: `https://<host>:443` for `"rest"` and ' +
    '`https://<host>:8443` for `"grpc"`, the host being that of the cluster\'s endpoint URL ' +
    "(`vdb_accounts_cluster`'s `url`).",
  parameters: [
    { name: 'url', type: STRING, description: "The cluster's endpoint URL." },
    { name: 'protocol', type: STRING, description: '`"rest"` or `"grpc"`.' },
  ],
  returns: STRING,
  examples: [
    {
      args: ['https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example', 'grpc'],
      result: 'https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example:8443',
    },
    {
      args: ['https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example', 'rest'],
      result: 'https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example:443',
    },
    {
      args: ['https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example', 'http'],
      error: '"http" is not a protocol',
      argument: 1,
    },
  ],
  call([url, protocol]) {
    const { host } = parseClusterUrl(url as string, 0);
    const port = ownEntry(PORTS, protocol as string);
    if (port === undefined)
      throw new FunctionArgumentError(1, `${JSON.stringify(protocol)} is not a protocol: give "rest" or "grpc"`);
    return `https://${host}:${port}`;
  },
});
