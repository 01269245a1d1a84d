/**
 * One object of every sec resource type, as a configuration that creates it, and the objects those
 * configurations refer to (made first by makeSecPrerequisites). The identity and list-resource table
 * (identity-and-lists.test.ts) runs a row for each; the answer-reading test makes them all, so that
 * every kind of record the platform keeps is in the API's answers.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import type { Case, Plain } from '../identity-and-lists.js';

export const SEC_BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIBVgIBADANBgkqhkiG9w0BAQEFAASCAUAwggE8AgEAAkEAq7BFUpkGp3+LQmlQ\n-----END PRIVATE KEY-----\n';
const role = { role_arn: 'arn:cloud-a:iam::123456789012:role/sec-audit', external_id: 'ext-1' };
const cloudBKey = {
  client_id: '1234567890',
  client_email: 'sa@project-1.cloud-b.example',
  private_key_id: 'key-id-1',
  private_key: PEM,
};
const cloudCKey = { client_id: '00000000-1111-2222-3333-444444444444', client_secret: 'cloud-c-secret-1' };
const accessKey = { access_key_id: 'AKIDGOV1', secret_access_key: 'gov-secret-1' };
const pubSubCredentials = {
  client_email: 'alerts@sec-proj.iam.example',
  client_id: '109876543210',
  private_key: PEM,
  private_key_id: 'key-id-1',
};
const gcrCredentials = [
  {
    client_id: 'a',
    client_email: 'a@b.example',
    private_key_id: 'k',
    private_key: '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkq\n-----END PRIVATE KEY-----\n',
  },
];
const violation = {
  name: 'Violation',
  event_name: 'Bucket exposed',
  description: 'Bucket {{RESOURCE_ID}} is public',
  subject: '{{_OCCURRENCE}} in {{ACCOUNT_ID}}',
};

/** What the sec cases refer to, made first. */
const secPrereq = { channel: '', policy: '', objectStore: '' };

export const SEC_CASES: Case[] = [
  {
    type: 'sec_alert_channel_cloud_a_event_bus',
    config: () => ({
      name: 'q-event-bus',
      event_bus_arn: 'arn:cloud-a:events:eu-west-1:123456789012:event-bus/default',
    }),
  },
  {
    type: 'sec_alert_channel_cloud_a_object_store',
    config: () => ({
      name: 'q-object-store',
      bucket_arn: 'arn:cloud-a:s3:::sec-alerts',
      credentials: [{ external_id: 'ext-1', role_arn: 'arn:cloud-a:iam::123456789012:role/x' }],
    }),
  },
  {
    type: 'sec_alert_channel_teams_a',
    config: () => ({ name: 'q-teams-a', webhook_url: 'https://teams-a.example/hooks/one' }),
  },
  {
    type: 'sec_alert_channel_teams_b',
    config: () => ({ name: 'q-teams-b', webhook_url: 'https://teams-b.example/webhook/one' }),
  },
  { type: 'sec_alert_channel_metrics', config: () => ({ name: 'q-metrics', api_key: 'metrics-key-1' }) },
  { type: 'sec_alert_channel_email', config: () => ({ name: 'q-email', recipients: ['a@example.com'] }) },
  {
    type: 'sec_alert_channel_cloud_b_pub_sub',
    config: () => ({ name: 'q-pub-sub', project_id: 'sec-proj', topic_id: 'alerts', credentials: [pubSubCredentials] }),
  },
  {
    type: 'sec_alert_channel_tracker_cloud',
    config: () => ({
      name: 'q-tracker-cloud',
      tracker_url: 'acme.tracker.example',
      issue_type: 'Bug',
      project_key: 'SEC',
      username: 'bot@acme.example',
      api_token: 't-1',
    }),
  },
  {
    type: 'sec_alert_channel_tracker_server',
    config: () => ({
      name: 'q-tracker-server',
      tracker_url: 'tracker.acme.example',
      issue_type: 'Task',
      project_key: 'OPS',
      username: 'bot',
      password: 'pw-1',
    }),
  },
  {
    type: 'sec_alert_channel_observ',
    config: () => ({ name: 'q-observ', account_id: 2345678, insert_key: 'insert-key-1' }),
  },
  { type: 'sec_alert_channel_pager', config: () => ({ name: 'q-pager', integration_key: 'pager-key-1' }) },
  {
    type: 'sec_alert_channel_siem',
    config: () => ({ name: 'q-siem', host_url: 'siem.acme.example', host_port: 8443 }),
  },
  {
    type: 'sec_alert_channel_ticketing',
    config: () => ({
      name: 'q-ticketing',
      instance_url: 'https://acme.ticketing.example',
      username: 'sec-bot',
      password: 'ticket-pw-1',
    }),
  },
  {
    type: 'sec_alert_channel_chat',
    config: () => ({ name: 'q-chat', webhook_url: 'https://chat.example/services/T0/B0/x' }),
  },
  {
    type: 'sec_alert_channel_log_sink',
    config: () => ({
      name: 'q-log-sink',
      ingest_token: 'ingest-token-1',
      host: 'logs.acme.example',
      port: 8088,
      event_data: [{ index: 'sec', source: 'platform' }],
    }),
  },
  {
    type: 'sec_alert_channel_on_call',
    config: () => ({
      name: 'q-on-call',
      webhook_url: 'https://on-call.example/integrations/generic/alert/key/routing-1',
    }),
  },
  {
    type: 'sec_alert_channel_webhook',
    config: () => ({ name: 'q-webhook', webhook_url: 'https://hooks.acme.example/sec' }),
  },
  { type: 'sec_integration_cloud_a_cfg', config: () => ({ name: 'q-cfg', credentials: [role] }) },
  {
    type: 'sec_integration_cloud_a_ct',
    config: () => ({ name: 'q-trail', queue_url: 'https://queue.cloud-a.example/123/trail', credentials: [role] }),
  },
  {
    type: 'sec_integration_cloud_a_eks_audit_log',
    config: () => ({ name: 'q-eks', topic_arn: 'arn:cloud-a:topic:eks', credentials: [role] }),
  },
  {
    type: 'sec_integration_cloud_a_gov_cfg',
    config: () => ({ name: 'q-gov', account_id: '123456789012', credentials: [accessKey] }),
  },
  {
    type: 'sec_integration_cloud_a_gov_ct',
    config: () => ({
      name: 'q-gov-trail',
      account_id: '123456789012',
      queue_url: 'https://queue.cloud-a.example/gov',
      credentials: [accessKey],
    }),
  },
  {
    type: 'sec_integration_cloud_a_agentless_scanning',
    config: () => ({ name: 'q-agentless', scan_frequency: 24, account_id: '123456789012', credentials: [role] }),
  },
  {
    type: 'sec_integration_cloud_a_org_agentless_scanning',
    config: () => ({
      name: 'q-org-agentless',
      scan_frequency: 24,
      scanning_account: '222222222222',
      monitored_accounts: ['111111111111'],
    }),
  },
  {
    type: 'sec_integration_cloud_a_dspm',
    config: () => ({
      name: 'q-dspm-a',
      storage_bucket_arn: 'arn:cloud-a:bucket:dspm',
      credentials: [role],
      regions: ['region-1'],
    }),
  },
  {
    type: 'sec_integration_cloud_b_cfg',
    config: () => ({ name: 'q-cfg-b', resource_level: 'project', resource_id: 'project-1', credentials: [cloudBKey] }),
  },
  {
    type: 'sec_integration_cloud_b_at',
    config: () => ({
      name: 'q-audit-b',
      resource_id: 'project-1',
      subscription: 'audit-sub',
      credentials: [cloudBKey],
    }),
  },
  {
    type: 'sec_integration_cloud_b_pub_sub_audit_log',
    config: () => ({
      name: 'q-pubsub-b',
      integration_type: 'PROJECT',
      project_id: 'project-1',
      subscription_id: 'sub',
      topic_id: 'topic',
      credentials: [cloudBKey],
    }),
  },
  {
    type: 'sec_integration_cloud_b_gke_audit_log',
    config: () => ({
      name: 'q-gke-b',
      integration_type: 'ORGANIZATION',
      organization_id: '1234',
      project_id: 'project-1',
      subscription: 'gke-sub',
      credentials: [cloudBKey],
    }),
  },
  {
    type: 'sec_integration_cloud_b_agentless_scanning',
    config: () => ({
      name: 'q-agentless-b',
      resource_id: 'project-1',
      bucket_name: 'results',
      scanning_project_id: 'scanner',
      credentials: [cloudBKey],
    }),
  },
  {
    type: 'sec_integration_cloud_c_cfg',
    config: () => ({ name: 'q-cfg-c', tenant_id: 'tenant-1', credentials: [cloudCKey] }),
  },
  {
    type: 'sec_integration_cloud_c_al',
    config: () => ({
      name: 'q-al-c',
      tenant_id: 'tenant-1',
      queue_url: 'https://storage.cloud-c.example/activity',
      credentials: [cloudCKey],
    }),
  },
  {
    type: 'sec_integration_cloud_c_ad_al',
    config: () => ({
      name: 'q-ad-c',
      tenant_id: 'tenant-1',
      event_stream_namespace: 'ns',
      event_stream_name: 'directory',
      credentials: [cloudCKey],
    }),
  },
  {
    type: 'sec_integration_cloud_c_agentless_scanning',
    config: () => ({
      name: 'q-agentless-c',
      scanning_subscription_id: 'sub-1',
      tenant_id: 'tenant-1',
      blob_container_name: 'results',
      scanning_resource_group_name: 'scanner-rg',
      storage_account_url: 'https://results.blob.cloud-c.example',
      credentials: [cloudCKey],
    }),
  },
  {
    type: 'sec_integration_cloud_c_dspm',
    config: () => ({
      name: 'q-dspm-c',
      storage_account_url: 'https://dspm.blob.cloud-c.example',
      blob_container_name: 'dspm',
      regions: ['region-1'],
      credentials: [cloudCKey],
    }),
  },
  {
    type: 'sec_integration_cloud_d_cfg',
    config: () => ({
      name: 'q-cfg-d',
      home_region: 'region-1',
      tenant_id: 'tenancy-1',
      tenant_name: 'acme',
      user_id: 'user-1',
      credentials: [{ fingerprint: '12:34:56:78:90:ab:cd:ef:12:34:56:78:90:ab:cd:ef', private_key: PEM }],
    }),
  },
  {
    type: 'sec_integration_registry_a',
    config: () => ({
      name: 'q-registry-a',
      registry_domain: 'x.example.com',
      credentials: [{ role_arn: 'a', external_id: 'b' }],
    }),
  },
  {
    type: 'sec_integration_registry_b',
    config: () => ({ name: 'q-registry-b', registry_domain: 'europe-docker.pkg.dev', credentials: gcrCredentials }),
  },
  {
    type: 'sec_integration_registry_c',
    config: () => ({ name: 'q-registry-c', registry_domain: 'eu.gcr.io', credentials: gcrCredentials }),
  },
  {
    type: 'sec_integration_registry_d',
    config: () => ({ name: 'q-registry-d', username: 'scanner', password: 'hub-pass-1' }),
  },
  {
    type: 'sec_integration_registry_e',
    config: () => ({
      name: 'q-registry-e',
      registry_domain: 'registry.example.com:5000',
      username: 'puller',
      password: 'pw-1',
    }),
  },
  {
    type: 'sec_integration_registry_f',
    config: () => ({ name: 'q-registry-f', username: 'octo', password: 'token-1' }),
  },
  { type: 'sec_integration_proxy_scanner', config: () => ({ name: 'q-proxy-scanner' }) },
  { type: 'sec_integration_inline_scanner', config: () => ({ name: 'q-inline-scanner' }) },
  {
    type: 'sec_agent_access_token',
    config: () => ({ name: 'q-token' }),
    // The name can change in place; the fingerprint of the value cannot (and reveals nothing).
    identity: (s) => ({ token_sha256: sha256(s.token as string) }),
    filters: (s) => ({ name: s.name }),
  },
  {
    type: 'sec_alert_profile',
    config: () => ({ name: 'Q_PROFILE', extends: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE', alert: [violation] }),
    identity: (s) => ({ name: s.name }),
  },
  {
    type: 'sec_policy',
    config: () => ({
      title: 'Q policy',
      query_id: 'SEC_Global_CloudA_Trail_TrailChange',
      description: 'd',
      remediation: 'r',
      severity: 'High',
      type: 'Violation',
      policy_id_suffix: 'query',
    }),
    displayName: (s) => s.title as string,
  },
  {
    type: 'sec_policy_compliance',
    config: () => ({
      title: 'Q compliance',
      query_id: 'SEC_Global_CloudA_Trail_TrailChange',
      description: 'd',
      remediation: 'r',
      severity: 'Low',
      policy_id_suffix: 'qcompliance',
    }),
    displayName: (s) => s.title as string,
  },
  {
    type: 'sec_policy_exception',
    config: () => ({
      policy_id: secPrereq.policy,
      description: 'Q sandbox accounts',
      constraint: [{ field_key: 'accountIds', field_values: ['111111111111'] }],
    }),
    identity: (s) => ({ policy_id: s.policy_id, id: s.id }),
    displayName: (s) => s.description as string,
    filters: (s) => ({ policy_id: s.policy_id }),
    importId: (s) => `${s.policy_id as string}:${s.id as string}`,
  },
  {
    type: 'sec_query',
    config: () => ({
      query_id: 'Q_Query',
      query:
        "{ source { SEC_CFG_CLOUD_A_BUCKETS } filter { RESOURCE_TYPE = 'bucket' } return { ACCOUNT_ID, RESOURCE_KEY } }",
    }),
    displayName: (s) => s.query_id as string,
  },
  {
    type: 'sec_managed_policies',
    config: () => ({ policy: [{ id: 'platform-global-34', enabled: true, severity: 'High' }] }),
    notListed: 'it changes built-in policies; it has no object of its own to list',
    notImportable: 'it records the settings it replaced, which an import cannot know',
  },
  {
    type: 'sec_alert_rule',
    config: () => ({
      name: 'q-alert-rule',
      severities: ['High'],
      alert_channels: [secPrereq.channel],
      sources: ['CloudA'],
    }),
  },
  { type: 'sec_data_export_rule', config: () => ({ name: 'q-data-export', integration_ids: [secPrereq.objectStore] }) },
  {
    type: 'sec_external_id',
    config: () => ({ csp: 'cloud_b', account_id: 'project-1' }),
    notListed: 'the platform keeps no record of external ids: the provider makes them',
    notImportable: 'the platform keeps no record an import could find',
  },
  {
    type: 'sec_report_rule',
    config: () => ({ name: 'q-rule', severities: ['High'], email_alert_channels: [secPrereq.channel] }),
  },
  {
    type: 'sec_resource_group',
    config: () => ({
      name: 'q-group',
      type: 'CLOUD_A',
      group: [
        {
          operator: 'AND',
          filter: [{ filter_name: 'accounts', field: 'Account', operation: 'EQUALS', value: ['123456789012'] }],
        },
      ],
    }),
  },
  {
    type: 'sec_team_member',
    config: () => ({ email: 'query@example.com', first_name: 'Que', last_name: 'Ry', company: 'Listed' }),
    displayName: (s) => s.email as string,
    filters: (s) => ({ email: s.email }),
  },
  {
    type: 'sec_vulnerability_exception_container',
    config: () => ({ name: 'q-container', vulnerability_criteria: [{ cves: ['CVE-2024-0001'] }] }),
  },
  {
    type: 'sec_vulnerability_exception_host',
    config: () => ({
      name: 'q-host',
      vulnerability_criteria: [{ cves: ['CVE-2023-1234'] }],
      resource_scope: [{ hostnames: ['db-1'] }],
    }),
  },
];

/** Makes the objects the cases refer to, with `make` (a plan and apply of one object of a type). */
export async function makeSecPrerequisites(make: (type: string, config: Plain) => Promise<ObjectValue>): Promise<void> {
  secPrereq.channel = (
    await make('sec_alert_channel_email', { name: 'q-reports', recipients: ['reports@example.com'] })
  ).id as string;
  secPrereq.objectStore = (
    await make('sec_alert_channel_cloud_a_object_store', {
      name: 'q-exports',
      bucket_arn: 'arn:cloud-a:s3:::q-exports',
      credentials: [{ external_id: 'ext-q', role_arn: 'arn:cloud-a:iam::123456789012:role/q' }],
    })
  ).id as string;
  secPrereq.policy = (
    await make('sec_policy', {
      title: 'For exceptions',
      query_id: 'SEC_Global_CloudA_Trail_TrailChange',
      description: 'd',
      remediation: 'r',
      severity: 'Low',
      type: 'Violation',
      policy_id_suffix: 'exc',
    })
  ).id as string;
}
