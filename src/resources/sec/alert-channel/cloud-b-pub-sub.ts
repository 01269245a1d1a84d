import { attr, block } from '@keel/provider-framework';
import { alertChannel } from './family.js';
import { grouping, issueGrouping, requiredText, unlessBlank } from './fields.js';
import { sentSecret } from '../../shared/secrets.js';
import { secRules } from '../rules.js';

export default alertChannel({
  typeName: 'sec_alert_channel_cloud_b_pub_sub',
  apiType: 'CloudBPubSub',
  description: 'Publishes platform alerts to a CloudB pub/sub topic, authenticated with a service-account key.',
  fields: {
    project_id: requiredText('Name of the CloudB project that holds the topic.'),
    topic_id: requiredText('Id of the topic the alerts are published to.'),
    issue_grouping: issueGrouping('message', 'CloudBPubSub'),
    credentials: block.one(
      {
        client_email: requiredText(
          'E-mail address of the service account.',
          ...secRules('AlertChannels:CloudBPubSub.credentials.clientEmail'),
        ),
        client_id: requiredText('Client id of the service account.'),
        private_key: attr.string({
          optional: true,
          sensitive: true,
          writeOnlyTwin: { required: true },
          masked: true,
          validate: secRules('AlertChannels:CloudBPubSub.credentials.privateKey'),
          description:
            'Private key of the service-account key (PEM). The platform never returns it, so changes ' +
            'made outside this configuration are not detected.',
        }),
        private_key_id: attr.string({
          optional: true,
          sensitive: true,
          writeOnlyTwin: { required: true },
          masked: true,
          description: 'Id of the service-account key. The platform never returns it.',
        }),
      },
      { required: true, description: 'The service-account key the platform publishes with.' },
    ),
  },
  wire: { project_id: 'projectId', topic_id: 'topicId' },
  toData: (m) => {
    const c = m.credentials[0]!;
    return {
      issueGrouping: grouping(m.issue_grouping),
      credentials: {
        clientId: c.client_id,
        clientEmail: c.client_email,
        privateKey: sentSecret(c.private_key),
        privateKeyId: sentSecret(c.private_key_id),
      },
    };
  },
  fromData: (data) => ({
    issue_grouping: data.issueGrouping ?? 'Events',
    credentials: [
      {
        client_email: data.credentials.clientEmail,
        client_id: data.credentials.clientId,
        private_key: unlessBlank(data.credentials.privateKey),
        private_key_id: unlessBlank(data.credentials.privateKeyId),
      },
    ],
  }),
});
