/**
 * The rule for every type with deprecated arguments or blocks: a change of form alone sends
 * nothing. An object made in each deprecated form the provider accepts (test/props/forms.ts) is
 * imported: the read puts what the platform holds into the current form, and the configuration still
 * writes the deprecated one. Its plan may show that change of form; its apply must send nothing to the
 * platform, and the next plan must be empty.
 */
import { expect } from 'chai';
import { valueToPlain } from '../../packages/framework/src/schema/model.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { ProviderCallError } from '../../src/tfclient/terraform-client.js';
import { fill, type EmulatorHandle } from '../acceptance/examples-workspace.js';
import type { Plain } from './configs.js';
import { deprecatedForms } from './forms.js';

export { holdsDeprecated } from './forms.js';
import { differences, show, type Lifecycle, type Subject } from './lifecycle.js';

export interface DeprecatedRun {
  readonly lifecycle: Lifecycle;
  readonly emulator: EmulatorHandle;
  readonly isWrite: (operation: string) => boolean;
}

/**
 * Runs every deprecated form of an importable type; returns how many ran, and how many the platform
 * refused to make (a value only its API judges, e.g. a key/value map for a constraint of plain values).
 */
export async function deprecatedFormsSendNothingAfterImport(
  run: DeprecatedRun,
  s: Subject,
): Promise<{ ran: number; refused: number }> {
  let refused = 0;
  const { lifecycle, emulator } = run;
  const tf = lifecycle.tf;
  const accepts = async (c: Plain) => (await lifecycle.verdict(s.type, c)).accepted;
  const forms = await deprecatedForms(s.fields, s.base, accepts);
  for (const form of forms) {
    const made = await lifecycle.verdict(s.type, form);
    if (!made.accepted) throw new Error(`${s.type}: ${show(form)} was accepted, then refused`);
    let state: ObjectValue;
    try {
      state = (await tf.apply(s.type, null, made.planned, made.config)).state!;
    } catch (err) {
      if (!(err instanceof ProviderCallError && err.diagnostics.every((d) => d.summary.startsWith('Cannot create'))))
        throw err;
      refused++;
      continue;
    }
    try {
      const imported = await tf.importState(s.type, fill(s.case.importId!, valueToPlain(state) as Plain));
      const plan = await tf.plan(s.type, imported, made.config);
      expect(plan.requiresReplace, `${s.type}: ${show(form)} after import`).to.deep.equal([]);
      const before = emulator.operations().length;
      state = (await tf.apply(s.type, imported, plan, made.config)).state!;
      const writes = emulator.operations().slice(before).filter(run.isWrite);
      expect(
        writes,
        `${s.type}: after import, ${show(form)} planned ${differences(lifecycle.block(s.type), imported, plan.planned!).join('; ')}`,
      ).to.deep.equal([]);
      const fresh = (await tf.read(s.type, state)).state!;
      const again = await tf.plan(s.type, fresh, made.config);
      expect(
        differences(lifecycle.block(s.type), fresh, again.planned!),
        `${s.type}: re-plan of ${show(form)}`,
      ).to.deep.equal([]);
      state = fresh;
    } finally {
      await tf.apply(s.type, state, await tf.plan(s.type, state, null), null).catch(() => undefined);
    }
  }
  return { ran: forms.length - refused, refused };
}
