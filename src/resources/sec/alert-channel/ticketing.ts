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

export default alertChannel({
  typeName: 'sec_alert_channel_ticketing',
  apiType: 'Ticketing',
  description: 'Opens incidents in a Ticketing instance for platform alerts.',
  fields: {
    instance_url: requiredText('URL of the Ticketing instance.'),
    username: requiredText('The Ticketing user that opens the incidents.'),
    password: secret(
      'Password of the Ticketing user. The platform never returns it, so changes made outside this configuration ' +
        'are not detected.',
    ),
    custom_template_file: customTemplate(
      'Custom template (JSON text) used to fill in the fields of new incidents, e.g. `file("template.json")`.',
    ),
    issue_grouping: issueGrouping('incident', 'Ticketing'),
  },
  wire: { instance_url: 'instanceUrl', username: 'userName' },
  toData: (m) => ({
    password: sentSecret(m.password),
    customTemplateFile: templateToWire(m.custom_template_file),
    issueGrouping: grouping(m.issue_grouping),
  }),
  fromData: (data) => ({
    password: unlessBlank(data.password),
    custom_template_file: templateFromWire(data.customTemplateFile),
    issue_grouping: data.issueGrouping ?? 'Events',
  }),
});
