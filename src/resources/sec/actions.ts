/**
 * The sec actions (Terraform 1.14 and later): send a test alert through an alert channel (the
 * channel test the resources run after a create or update, docs/api/sec.md, "Channel tests"), and
 * start a scan of a cloud's resource inventory (the platform's inventory scan,
 * `POST /api/v2/Inventory/scan?csp=…`). Each is one request: the platform answers at once.
 */
import {
  action,
  attr,
  attrStep,
  DiagnosticError,
  isApiError,
  resourceSchema,
  sentences,
  validators,
} from '@keel/provider-framework';
import type { InventoryCloud, SecClient } from '../../clients/sec/index.js';
import { secRules } from './rules.js';

const channelTestFields = {
  channel_id: attr.string({
    required: true,
    refersTo: 'an alert channel',
    validate: [validators.nonEmpty()],
    description: 'The alert channel to test: its `id` (the integration GUID), e.g. `sec_alert_channel_webhook.ops.id`.',
  }),
};

export const alertChannelTest = action<typeof channelTestFields, SecClient>({
  typeName: 'sec_alert_channel_test',
  schema: resourceSchema(channelTestFields, {
    description:
      'Sends a test alert through an alert channel, as the platform console\'s "Test" button does: run it on its ' +
      'own (`terraform apply -invoke=action.sec_alert_channel_test.<name>`) or after a change of the channel ' +
      '(`action_trigger` with `after_update`). It fails with the reason the platform gives when the destination ' +
      'refuses the alert.',
  }),
  interruption:
    'The test alert is one request. If the run is cut short while it is out, the alert may or may not have been ' +
    'sent; running the action again sends another test alert, which changes nothing on the platform but the ' +
    "channel's last test result.",
  async invoke(config, ctx) {
    const id = config.channel_id;
    ctx.progress(`Sending a test alert through alert channel ${id}`);
    try {
      await ctx.client.alertChannels.test(id, { signal: ctx.signal });
    } catch (err) {
      if (isApiError(err, 'not_found'))
        throw new DiagnosticError(
          'Alert channel not found',
          sentences(`The platform has no alert channel ${id}: ${err.message}`, 'Give the `id` of an existing channel.'),
          [attrStep('channel_id')],
        );
      if (isApiError(err, 'invalid'))
        throw new DiagnosticError(
          'Test alert failed',
          sentences(
            `The platform could not send a test alert through alert channel ${id}: ${err.message}`,
            "Check the channel's destination and credentials.",
          ),
        );
      throw err;
    }
    ctx.progress(`Test alert sent through alert channel ${id}`);
  },
});

const inventoryScanFields = {
  cloud: attr.string({
    required: true,
    validate: secRules('Inventory:scan.csp'),
    description: 'The cloud whose resources are scanned in every integrated account (the names resource groups use).',
  }),
};

export const inventoryScan = action<typeof inventoryScanFields, SecClient>({
  typeName: 'sec_inventory_scan',
  schema: resourceSchema(inventoryScanFields, {
    description:
      'Starts a scan of the resource inventory of a cloud now, instead of at its next scheduled time: e.g. after ' +
      'the integration of new accounts (`action_trigger` with `after_create` on the integration), so that ' +
      'compliance reports see them at once. The platform scans in the background; the action ends when the scan ' +
      'has started.',
  }),
  interruption:
    'The scan is asked for with one request, which the provider repeats while the platform declines it for the ' +
    'moment (HTTP 429 or 503). Running the action again asks for another scan.',
  async invoke(config, ctx) {
    const cloud = config.cloud as InventoryCloud;
    ctx.progress(`Asking the platform to scan the ${cloud} resource inventory`);
    let scan: { status: string; details: string };
    try {
      scan = await ctx.client.inventory.scan(cloud, { signal: ctx.signal });
    } catch (err) {
      if (isApiError(err, 'invalid') || isApiError(err, 'conflict'))
        throw new DiagnosticError(
          'Inventory scan refused',
          sentences(
            `The platform refused to scan the ${cloud} resource inventory: ${err.message}`,
            'A scan needs an account of that cloud integrated with the platform.',
          ),
          [attrStep('cloud')],
        );
      throw err;
    }
    const details = scan.details === '' ? '' : ` (${scan.details})`;
    ctx.progress(`The platform is scanning the ${cloud} resource inventory: ${scan.status}${details}`);
  },
});

export const secActions = [alertChannelTest, inventoryScan];
