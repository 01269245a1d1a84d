import { attr } from '@keel/provider-framework';
import { cloudAccount } from './family.js';
import {
  optionalText,
  roleCredentials,
  scanFromWire,
  scanSettings,
  scanToWire,
  serverToken,
  serverUri,
  unlessBlank,
} from './fields.js';

/** What agentless scanning of one account and of an organisation (API type `type`) share. */
export const cloudAAgentlessFields = (type: 'CloudAAgentless' | 'CloudAAgentlessOrg') => ({
  ...scanSettings(type, { containers: false, hostVulnerabilities: false }),
  account_id: attr.string({ optional: true, description: 'Id of the account the scanner runs in.' }),
  bucket_arn: attr.string({ optional: true, description: 'ARN of the bucket the scanner stores its results in.' }),
  credentials: roleCredentials({
    required: false,
    description: 'The cross-account role the platform assumes to run the scanner.',
  }),
  server_token: serverToken(),
  uri: serverUri(),
});

type Own = {
  account_id: string | null;
  bucket_arn: string | null;
  credentials: { role_arn: string; external_id: string }[];
} & Parameters<typeof scanToWire>[0];

export function cloudAAgentlessToWire(m: Own) {
  const c = m.credentials[0];
  const accountId = unlessBlank(m.account_id);
  const bucketArn = unlessBlank(m.bucket_arn);
  return {
    ...scanToWire(m),
    ...(accountId ? { cloudAAccountId: accountId } : {}),
    ...(bucketArn ? { bucketArn } : {}),
    ...(c ? { crossAccountCredentials: { roleArn: c.role_arn, externalId: c.external_id } } : {}),
  };
}

export function cloudAAgentlessFromWire(
  data: Parameters<typeof scanFromWire>[0] & {
    cloudAAccountId?: string | undefined;
    bucketArn?: string | undefined;
    crossAccountCredentials?: { roleArn?: string | undefined; externalId?: string | undefined } | undefined;
  },
  own: Own | null,
) {
  const c = data.crossAccountCredentials;
  return {
    ...scanFromWire(data, own),
    account_id: optionalText(data.cloudAAccountId, own?.account_id),
    bucket_arn: optionalText(data.bucketArn, own?.bucket_arn),
    credentials: c?.roleArn || c?.externalId ? [{ role_arn: c.roleArn ?? '', external_id: c.externalId ?? '' }] : [],
  };
}

export default cloudAccount({
  typeName: 'sec_integration_cloud_a_agentless_scanning',
  apiType: 'CloudAAgentless',
  status: 'standard',
  description:
    'Scans the hosts of a CloudA account for vulnerabilities without agents: a scanner deployed in the ' +
    'account snapshots the volumes and reports to the platform with `server_token`.',
  fields: cloudAAgentlessFields('CloudAAgentless'),
  toData: (m) => cloudAAgentlessToWire(m),
  fromData: (data, own) => cloudAAgentlessFromWire(data, own),
});
