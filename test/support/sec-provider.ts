/**
 * The set-up the sec resource tests share: an emulator in this process, and the built executable
 * started through the Terraform-side client and configured from the emulator's environment, as
 * Terraform would run it.
 */
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator, type SecEmulatorOptions } from '../../src/emulators/sec/index.js';
import { createSecClient, type SecClient } from '../../src/clients/sec/index.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { TerraformClient } from '../../src/tfclient/terraform-client.js';

export const SEC_BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');

export interface SecProvider {
  readonly emulator: SecEmulator;
  readonly tf: TerraformClient;
  /** Stops the provider process, then the emulator. */
  close(): Promise<void>;
}

export async function startSecProvider(options: SecEmulatorOptions = {}): Promise<SecProvider> {
  const emulator = await startSecEmulator(options);
  try {
    const tf = await TerraformClient.start(SEC_BIN, secProviderEnv(emulator));
    await tf.configure({});
    return {
      emulator,
      tf,
      async close() {
        await tf.close();
        await emulator.close();
      },
    };
  } catch (err) {
    await emulator.close();
    throw err;
  }
}

/** A client of the platform's API on the emulator, as the test's own hands (to set up or look). */
export function secClientFor(emulator: SecEmulator): SecClient {
  return createSecClient({
    baseUrl: emulator.url,
    account: emulator.account,
    apiKey: emulator.apiKey,
    apiSecret: emulator.apiSecret,
    userAgent: 'test',
  });
}
