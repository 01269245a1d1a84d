import { alertChannel } from './family.js';
import { grouping, issueGrouping, requiredText } from './fields.js';

export default alertChannel({
  typeName: 'sec_alert_channel_cloud_a_event_bus',
  apiType: 'CloudAEventBus',
  description: 'Forwards platform alerts to a CloudA event bus, where rules can route them on.',
  fields: {
    event_bus_arn: requiredText('Resource name of the event bus that receives the alerts.'),
    group_issues_by: issueGrouping('bus event', 'CloudAEventBus'),
  },
  wire: { event_bus_arn: 'eventBusArn' },
  toData: (m) => ({ issueGrouping: grouping(m.group_issues_by) }),
  // An absent grouping is the platform's default.
  fromData: (data) => ({ group_issues_by: data.issueGrouping ?? 'Events' }),
});
