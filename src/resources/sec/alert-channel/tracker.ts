/**
 * The two issue-tracker channels share one API type (`Tracker`) and differ in `data.trackerType` and
 * the credential: the cloud tracker takes an API token, the self-hosted server a password.
 */
import { attr } from '@keel/provider-framework';
import type { TRACKER_CONFIGURATIONS } from '../../../wire/sec-contract/alert-channels.js';
import { checkedBy, secRules } from '../rules.js';
import { alertChannel } from './family.js';
import {
  customTemplate,
  grouping,
  issueGrouping,
  requiredText,
  secret,
  templateFromWire,
  templateToWire,
  unlessBlank,
} from './fields.js';
import { sentSecret } from '../../shared/secrets.js';

const VARIANTS = {
  cloud: { typeName: 'sec_alert_channel_tracker_cloud', trackerType: 'TRACKER_CLOUD' },
  server: { typeName: 'sec_alert_channel_tracker_server', trackerType: 'TRACKER_SERVER' },
} as const;

const common = {
  tracker_url: attr.string({
    required: true,
    validate: secRules('AlertChannels:Tracker.trackerUrl', { samples: ['tracker.example.com'] }),
    description: 'Host of the tracker, without the `https://` prefix, e.g. `acme.tracker.example`.',
  }),
  issue_type: requiredText('Issue type created for each event. It must already exist in the project.'),
  project_key: requiredText('Key of the project the issues are created in.'),
  username: requiredText(
    'The tracker user that creates the issues; it needs permission to create issues in the project.',
  ),
  configuration: attr.string({
    optional: true,
    default: 'Unidirectional',
    validate: secRules('AlertChannels:Tracker.bidirectionalConfig'),
    description:
      "`Unidirectional`: a change of an alert's status updates the issue. `Bidirectional`: status " +
      'changes also propagate from the tracker back to the platform.',
  }),
  custom_template_file: customTemplate(
    'Custom template (JSON text) used to fill in the fields of new issues, e.g. `file("template.json")`.',
  ),
  group_issues_by: issueGrouping('issue', 'Tracker'),
};

function baseData(m: {
  tracker_url: string;
  issue_type: string;
  project_key: string;
  username: string;
  configuration: string | null;
  custom_template_file: string | null;
  group_issues_by: string | null;
}) {
  return {
    trackerUrl: m.tracker_url,
    issueType: m.issue_type,
    projectId: m.project_key,
    username: m.username,
    customTemplateFile: templateToWire(m.custom_template_file),
    bidirectionalConfig: (m.configuration ?? 'Unidirectional') as (typeof TRACKER_CONFIGURATIONS)[number],
    issueGrouping: grouping(m.group_issues_by),
  };
}

function baseModel(data: {
  trackerUrl: string;
  issueType: string;
  projectId: string;
  username: string;
  customTemplateFile?: string | undefined;
  bidirectionalConfig?: string | undefined;
  issueGrouping?: string | undefined;
}) {
  return {
    tracker_url: data.trackerUrl,
    issue_type: data.issueType,
    project_key: data.projectId,
    username: data.username,
    custom_template_file: templateFromWire(data.customTemplateFile),
    // Absent settings are the platform's defaults.
    configuration: data.bidirectionalConfig ?? 'Unidirectional',
    group_issues_by: data.issueGrouping ?? 'Events',
  };
}

// Each variant requires its own credential (api_token, password), as the platform requires it of its trackerType.
checkedBy('AlertChannels:Tracker', 'check', {
  inCode: 'sec_alert_channel_tracker_cloud.api_token, _server.password',
});

const description = (where: string) =>
  `Creates an issue in ${where} for each platform event at or above the alert severity. When events ` +
  `arrive faster than the tracker accepts them, the most severe are created first. The issue type must ` +
  `already exist in the project.`;

function otherVariant(own: keyof typeof VARIANTS) {
  return (data: { trackerType: string }) => {
    const other = own === 'cloud' ? VARIANTS.server : VARIANTS.cloud;
    return data.trackerType === other.trackerType
      ? `it is a ${own === 'cloud' ? 'server' : 'cloud'} tracker channel (${other.typeName})`
      : undefined;
  };
}

export const trackerCloud = alertChannel({
  typeName: VARIANTS.cloud.typeName,
  apiType: 'Tracker',
  description: description('a cloud-hosted tracker'),
  fields: {
    ...common,
    api_token: secret(
      'API token of the tracker user. The platform never returns it, so changes made outside this configuration ' +
        'are not detected.',
    ),
  },
  toData: (m) => ({ trackerType: VARIANTS.cloud.trackerType, ...baseData(m), apiToken: sentSecret(m.api_token) }),
  fromData: (data) => ({ ...baseModel(data), api_token: unlessBlank(data.apiToken) }),
  otherVariant: otherVariant('cloud'),
});

export const trackerServer = alertChannel({
  typeName: VARIANTS.server.typeName,
  apiType: 'Tracker',
  description:
    `${description('a self-hosted tracker server')} The server must accept connections from ` +
    `the platform's outbound addresses.`,
  fields: {
    ...common,
    password: secret(
      'Password of the tracker user. The platform never returns it, so changes made outside this configuration ' +
        'are not detected.',
    ),
  },
  toData: (m) => ({ trackerType: VARIANTS.server.trackerType, ...baseData(m), password: sentSecret(m.password) }),
  fromData: (data) => ({ ...baseModel(data), password: unlessBlank(data.password) }),
  otherVariant: otherVariant('server'),
});
