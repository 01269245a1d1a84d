/**
 * `vdb_cluster_backup` (an action, Terraform 1.14 and later): backs a cluster up now and waits until
 * the backup has succeeded or failed, reporting its progress: e.g. before an upgrade, with
 * `action_trigger { events = [before_update] }` on the cluster, so that the update runs only once
 * the backup exists. One `CreateBackup` (docs/api/vdb.md, "Backups"), then `GetBackup` until the backup ends.
 *
 * A backup is requested once per run. Before the request the action lists the cluster's backups,
 * so that when the answer to the request is lost it can tell the backup the request made (the one
 * new manual backup) and wait for it, instead of asking for another. A stop, the call's deadline or
 * the `timeout` ends the wait at once and leaves the backup running on the platform.
 */
import {
  action,
  type ActionContext,
  attr,
  attrStep,
  DiagnosticError,
  isApiError,
  type ModelOf,
  resourceSchema,
  sentences,
} from '@keel/provider-framework';
import type { Backup } from '../../clients/vdb/api.js';
import { WaitFailedError, WaitTimeoutError, waitFor } from '../shared/wait.js';
import { apiRules } from './rules.js';
import { ACCOUNT_ID, goDurationToProto, protoToGoDuration, type VdbContext } from './common.js';
import { goDurationBetween, parseGoDuration } from './formats.js';

/** How long the action waits for the backup when `timeout` is not set. */
const DEFAULT_TIMEOUT = '1h';
const POLL_FIRST_MS = 1_000;
const POLL_MAX_MS = 15_000;

const fields = {
  cluster_id: attr.string({
    required: true,
    refersTo: 'a cluster',
    validate: apiRules('cluster.backup.v1.Backup.cluster_id'),
    description: 'The cluster to back up, e.g. `vdb_accounts_cluster.main.id`.',
  }),
  account_id: attr.string({
    optional: true,
    validate: ACCOUNT_ID,
    refersTo: 'an account',
    description: "The account of the cluster. Defaults to the provider's `account_id`.",
  }),
  retention_period: attr.string({
    optional: true,
    validate: apiRules('cluster.backup.v1.Backup.retention_period'),
    description:
      "How long the backup is kept, as a Go duration from `24h` to `8760h` (e.g. `72h`). Unset uses the platform's " +
      'default.',
  }),
  timeout: attr.string({
    optional: true,
    validate: [goDurationBetween('1s', '24h')],
    description:
      `How long the action waits for the backup to finish, as a Go duration from \`1s\` to \`24h\` (default ` +
      `\`${DEFAULT_TIMEOUT}\`). A backup still running then keeps running on the platform, and the action fails ` +
      'saying so (an `action_trigger` before an update then keeps the update from running).',
  }),
};

type Config = ModelOf<typeof fields>;

export const clusterBackup = action<typeof fields, VdbContext>({
  typeName: 'vdb_cluster_backup',
  schema: resourceSchema(fields, {
    description:
      'Backs a cluster up now and waits until the backup has succeeded, showing its progress; fails when the ' +
      'platform reports the backup failed or skipped. Run it on its own (`terraform apply ' +
      '-invoke=action.vdb_cluster_backup.<name>`) or before a change of the cluster (`action_trigger` with ' +
      '`before_update` in its `lifecycle`), so that the change runs only once the backup exists. The backup is a ' +
      'manual backup of the cluster, kept for `retention_period`; Terraform does not manage it (see the ' +
      '`vdb_accounts_manual_backup` resource for one that it does).',
  }),
  interruption:
    'The backup is requested once per run. If the answer to the request is lost, the action looks for the backup ' +
    'the request made (the one new manual backup of the cluster) and waits for it; it never asks for a second one. ' +
    'If Terraform stops the provider (Ctrl-C), the call ends, or `timeout` passes while the backup runs, the action ' +
    'ends at once with an error that names the backup, which keeps running on the platform. Running the action ' +
    'again requests another backup.',
  validateWithProvider(config, client) {
    // The account is known at plan time: the action's own, or the provider's.
    if (config.account_id === null) accountOf(null, client);
  },
  async invoke(config, ctx) {
    const accountId = accountOf(config.account_id, ctx.client);
    const timeout = config.timeout ?? DEFAULT_TIMEOUT;
    const timeoutMs = Number(parseGoDuration(timeout)! / 1_000_000n);
    const backup = await requestBackup(config, accountId, ctx);
    const named = `backup ${backup.name} (${backup.id})`;
    ctx.started(`${named} of cluster ${config.cluster_id}`);
    ctx.progress(
      `Backing up cluster ${config.cluster_id}: ${named} started; waiting up to ${timeout} for it to finish`,
    );
    const since = Date.now();
    let done: Backup;
    try {
      done = await waitFor({
        what: `${named} of cluster ${config.cluster_id} to finish`,
        refresh: (signal) => ctx.client.api.backups.get({ accountId, backupId: backup.id }, { signal }),
        phaseOf: (b) => b.status,
        pending: ['BACKUP_STATUS_RUNNING', 'BACKUP_STATUS_UNSPECIFIED'],
        target: ['BACKUP_STATUS_SUCCEEDED'],
        timeoutMs,
        intervalMs: POLL_FIRST_MS,
        maxIntervalMs: POLL_MAX_MS,
        signal: ctx.signal,
        onPoll: (b) => {
          if (b.status !== 'BACKUP_STATUS_SUCCEEDED')
            ctx.progress(`${upperFirst(named)}: ${b.status} (${elapsed(Date.now() - since)})`);
        },
      });
    } catch (err) {
      if (err instanceof WaitFailedError) {
        throw new DiagnosticError(
          'Backup failed',
          `The platform reports ${named} of cluster ${config.cluster_id} as ${err.phase} after ` +
            `${elapsed(Date.now() - since)}: the cluster has no new backup. Look into the cluster's state in the ` +
            'console, then run the action again.',
        );
      }
      if (err instanceof WaitTimeoutError) {
        throw new DiagnosticError(
          'Backup not finished',
          `${upperFirst(named)} of cluster ${config.cluster_id} was still ${err.phase || 'running'} ` +
            `after ${timeout}, as long as the action waits (\`timeout\`). It keeps running on the platform and ` +
            'is not requested again; set a longer `timeout` for a cluster this large.',
        );
      }
      if (isApiError(err, 'not_found') && !ctx.signal.aborted) {
        throw new DiagnosticError(
          'Backup disappeared',
          sentences(
            `${upperFirst(named)} of cluster ${config.cluster_id} was deleted while the action waited for it`,
            err.message,
          ),
        );
      }
      throw err;
    }
    const took = protoToGoDuration(done.backupDuration);
    ctx.progress(`${upperFirst(named)} succeeded${took ? ` (it took ${took})` : ''}`);
  },
});

/**
 * Sends the one CreateBackup of the run. When its answer is lost, the backup it made is the one new
 * manual backup of the cluster since the listing before it; none, or several, is an error.
 */
async function requestBackup(config: Config, accountId: string, ctx: ActionContext<VdbContext>): Promise<Backup> {
  const api = ctx.client.api;
  const listing = { accountId, clusterId: config.cluster_id };
  const manual = (all: readonly Backup[]) => all.filter((b) => !b.backupScheduleId && !b.deletedAt);
  const before = new Set((await api.backups.list(listing, { signal: ctx.signal })).map((b) => b.id));
  const retentionPeriod = goDurationToProto(config.retention_period);
  ctx.progress(`Requesting a backup of cluster ${config.cluster_id}`);
  try {
    return await api.backups.create(
      { accountId, clusterId: config.cluster_id, ...(retentionPeriod ? { retentionPeriod } : {}) },
      { signal: ctx.signal },
    );
  } catch (err) {
    if (!isApiError(err, 'outcome_unknown') || ctx.signal.aborted) throw err;
    const made = manual(await api.backups.list(listing, { signal: ctx.signal })).filter((b) => !before.has(b.id));
    if (made.length === 1) {
      ctx.progress(
        `The answer to the backup request was lost; the request made backup ${made[0]!.name} (${made[0]!.id})`,
      );
      return made[0]!;
    }
    const lost =
      `The request to back up cluster ${config.cluster_id} was sent, but its answer was lost ` + `(${err.message})`;
    if (made.length === 0)
      throw new DiagnosticError(
        'Backup request lost',
        `${lost}, and no new backup of the cluster appeared: none was made. Run the action again.`,
      );
    throw new DiagnosticError(
      'Backup request lost',
      `${lost}, and ${made.length} new manual backups of the cluster appeared since ` +
        `(${made.map((b) => b.id).join(', ')}): ` +
        'the provider cannot tell which one the request made, so it waits for none and requests no other. Check ' +
        'them in the console.',
    );
  }
}

/** The account of the cluster: the action's own, else the provider's. */
function accountOf(own: string | null, client: VdbContext): string {
  if (own) return own;
  if (client.defaultAccountId) return client.defaultAccountId;
  const provider =
    client.noDefaultAccount === undefined
      ? 'in the provider configuration (or the VDB_ACCOUNT_ID environment variable)'
      : `in the provider configuration: ${client.noDefaultAccount}`;
  throw new DiagnosticError(
    'Account ID not specified',
    `Set \`account_id\` in the action's \`config\` block, or ${provider}`,
    [attrStep('account_id')],
  );
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A span of time as people read it: `850 ms`, `12 s`, `3 min 5 s`. */
function elapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
