/**
 * `provider::vdb::parse_cluster_url(url)`: the cluster id, region and cloud a cluster's endpoint URL
 * holds, for a configuration given only the URL (an output of another, a variable).
 */
import { objectOf, providerFunction, STRING } from '@keel/provider-framework';
import { parseClusterUrl } from './cluster-url.js';

export default providerFunction({
  name: 'parse_cluster_url',
  summary: 'The id, region and cloud of a cluster, from its endpoint URL',
  description:
    "Splits a cluster's endpoint URL, as `vdb_accounts_cluster` reports it in `url` " +
    "(`https://<cluster id>.<region>.<cloud>.vdb-cloud.example`), into an object with the cluster's `id`, " +
    'its `region` (`cloud_region`) and its `cloud` (`cloud_provider`). A port or a path after the host is ' +
    'ignored.',
  parameters: [{ name: 'url', type: STRING, description: "The cluster's endpoint URL." }],
  returns: objectOf({ id: STRING, region: STRING, cloud: STRING }),
  examples: [
    {
      args: ['https://0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f.eu-central-1.aws.vdb-cloud.example:6333/dashboard'],
      result: { id: '0b7c1f3e-9d2a-4c6b-8e1f-2a3b4c5d6e7f', region: 'eu-central-1', cloud: 'aws' },
    },
    { args: ['http://example.com'], error: 'is not a cluster endpoint', argument: 0 },
    { args: ['not a url'], error: '"not a url" is not a URL', argument: 0 },
  ],
  call([url]) {
    const { id, region, cloud } = parseClusterUrl(url as string, 0);
    return { id, region, cloud };
  },
});
