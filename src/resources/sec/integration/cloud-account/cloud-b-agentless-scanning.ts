import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import {
  cloudBScannerCredentials,
  cloudBCredentialsFromWire,
  cloudBCredentialsToWire,
  cloudBScope,
  optionalIdList,
  joinedUnlessEmpty,
  optionalJoinedList,
  scanFromWire,
  scanSettings,
  scanToWire,
  serverToken,
  serverUri,
  unlessBlank,
  upperScope,
} from './fields.js';

export default cloudAccount({
  typeName: 'sec_integration_cloud_b_agentless_scanning',
  apiType: 'CloudBAgentless',
  status: 'standard',
  description:
    'Scans the hosts of a CloudB project or organisation for vulnerabilities without agents: a scanner ' +
    'deployed in a scanning project snapshots the disks, shares its results through a bucket and ' +
    'reports to the platform with `server_token`.',
  fields: {
    credentials: cloudBScannerCredentials(),
    resource_level: cloudBScope({
      field: 'CloudAccounts:CloudBAgentless.idType',
      required: false,
      description: 'What `resource_id` names: `PROJECT` (default) or `ORGANIZATION`, in any letter case.',
    }),
    resource_id: attr.string({ required: true, description: 'Id of the project or organisation to scan.' }),
    bucket_name: attr.string({
      required: true,
      description: 'Name of the bucket the scanner shares its results with the platform through.',
    }),
    scanning_project_id: attr.string({ required: true, description: 'Id of the project the scanner is deployed in.' }),
    ...scanSettings('CloudBAgentless', { frequency: 24, containers: true, hostVulnerabilities: true, queryText: '' }),
    filter_list: optionalIdList(
      'Projects to include in or exclude from the scan; unset scans every project in scope. Surrounding ' +
        'whitespace is ignored.',
      { joined: true },
    ),
    server_token: serverToken(),
    uri: serverUri(),
  },
  toData: (m) => {
    const c = m.credentials[0]!;
    const tokenUri = unlessBlank(c.token_uri);
    const filterList = joinedUnlessEmpty(m.filter_list);
    return {
      ...scanToWire(m),
      credentials: { ...cloudBCredentialsToWire(c), ...(tokenUri ? { tokenUri } : {}) },
      idType: upperScope(m.resource_level, 'PROJECT'),
      id: m.resource_id,
      sharedBucketName: m.bucket_name,
      scanningProjectId: m.scanning_project_id,
      ...(filterList ? { filterList } : {}),
    };
  },
  fromData: (data, own) => ({
    ...scanFromWire(data, own),
    // An unset token endpoint stays unset unless the platform reports the one it uses.
    credentials: [
      {
        ...cloudBCredentialsFromWire(data.credentials, own?.credentials[0]),
        token_uri: data.credentials.tokenUri || undefined,
      },
    ],
    resource_level: data.idType,
    resource_id: data.id,
    bucket_name: data.sharedBucketName,
    scanning_project_id: data.scanningProjectId,
    filter_list: optionalJoinedList(data.filterList, own?.filter_list),
  }),
});
