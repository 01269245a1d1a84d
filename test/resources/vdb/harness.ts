/**
 * What the vdb resource tests share: the in-process emulator, the provider executable driven through
 * the Terraform-side client (which applies Terraform's own plan, apply and read checks), and the
 * create → no-op re-plan step every test repeats.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startVdbEmulator, type VdbEmulator, type VdbEmulatorOptions } from '../../../src/emulators/vdb/index.js';
import {
  TerraformClient,
  configValue,
  ProviderCallError,
  type PlannedChange,
} from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { vdbProviderEnv } from '../../../src/tfclient/terraform-cli.js';

export const VDB_BIN = join(process.cwd(), 'bin', 'terraform-provider-vdb');

export interface Harness {
  emulator: VdbEmulator;
  tf: TerraformClient;
  config(type: string, plain: Record<string, unknown>): ObjectValue;
  /** Plan and apply `plain` over `prior`, then require an empty re-plan; returns the new state. */
  converge(type: string, prior: ObjectValue | null, plain: Record<string, unknown>): Promise<ObjectValue>;
  /** Plans `plain` over `prior` (no apply). */
  plan(type: string, prior: ObjectValue | null, plain: Record<string, unknown> | null): Promise<PlannedChange>;
  /** Whether the plan of `plain` over `state` changes nothing. */
  isNoOp(type: string, state: ObjectValue, plain: Record<string, unknown>): Promise<boolean>;
  destroy(type: string, state: ObjectValue): Promise<void>;
  /**
   * ApplyResourceChange answered as is, errors included: the state the provider returned alongside its
   * diagnostics (Terraform keeps that state even when the apply fails).
   */
  applyRaw(
    type: string,
    prior: ObjectValue | null,
    change: PlannedChange,
    plain: Record<string, unknown>,
  ): Promise<{ state: ObjectValue | null; errors: { summary: string; detail: string }[] }>;
  /** The error diagnostics of a call expected to fail. */
  failure(promise: Promise<unknown>): Promise<ProviderCallError>;
  close(): Promise<void>;
}

export async function startHarness(
  options: VdbEmulatorOptions = {},
  env: Record<string, string> = {},
): Promise<Harness> {
  const emulator = await startVdbEmulator({ provisioningMs: 300, ...options });
  let tf: TerraformClient;
  try {
    tf = await TerraformClient.start(VDB_BIN, { ...vdbProviderEnv(emulator), ...env });
    await tf.configure({});
  } catch (err) {
    await emulator.close();
    throw err;
  }
  const h: Harness = {
    emulator,
    tf,
    config: (type, plain) => configValue(tf.resourceSchema(type).block, plain),
    async plan(type, prior, plain) {
      const config = plain === null ? null : h.config(type, plain);
      if (config) await tf.validateResource(type, config);
      return tf.plan(type, prior, config);
    },
    async converge(type, prior, plain) {
      const config = h.config(type, plain);
      await tf.validateResource(type, config);
      const change = await tf.plan(type, prior, config);
      const { state } = await tf.apply(type, prior, change, config);
      expect(await h.isNoOp(type, state!, plain), 're-plan after apply must be empty').to.equal(true);
      return state!;
    },
    async isNoOp(type, state, plain) {
      const block = tf.resourceSchema(type).block;
      const again = await tf.plan(type, state, h.config(type, plain));
      return valueEquals(impliedType(block), again.planned, state) && again.requiresReplace.length === 0;
    },
    async destroy(type, state) {
      await tf.apply(type, state, await tf.plan(type, state, null), null);
    },
    async applyRaw(type, prior, change, plain) {
      const { state, errors } = await tf.applyKeepingState(type, prior, change, h.config(type, plain));
      return { state, errors: errors.map((d) => ({ summary: d.summary, detail: d.detail })) };
    },
    async failure(promise) {
      const err = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, 'the call must fail').to.be.instanceOf(ProviderCallError);
      return err as ProviderCallError;
    },
    async close() {
      await tf?.close();
      await emulator.close();
    },
  };
  return h;
}
