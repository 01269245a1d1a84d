/**
 * An argument naming an object the platform does not hold (docs/decisions.md, "Whose object is it"):
 * the plan warns at its path, saying the apply looks again; the apply refuses at the same path before
 * anything is sent. What the resource tests of such checks assert through.
 */
import { expect } from 'chai';
import { NOT_SENT, YET_TO_COME } from '../../packages/framework/src/engine/catalogue/catalogue-checks.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { ProviderCallError, type TerraformClient } from '../../src/tfclient/terraform-client.js';

export interface Finding {
  readonly path: string;
  readonly summary: string;
  /** The check's own words, without what the engine adds at plan or apply. */
  readonly detail: string;
}

/** Plans and applies a create of `config`; the plan's warnings about missing objects, checked against the apply's refusal. */
export async function missingAtPlanRefusedAtApply(
  tf: TerraformClient,
  type: string,
  config: ObjectValue,
): Promise<Finding[]> {
  const before = tf.received.length;
  const change = await tf.plan(type, null, config);
  const warnings = tf.received.slice(before).filter((d) => d.severity === 'warning');
  expect(warnings.length, 'the plan warns').to.be.above(0);
  const refused = await tf.apply(type, null, change, config).then(
    () => null,
    (e: unknown) => e,
  );
  expect(refused, 'the apply refuses').to.be.instanceOf(ProviderCallError);
  const errors = (refused as ProviderCallError).diagnostics;
  expect(
    errors.map((d) => [d.path, d.summary]),
    'the apply refuses what the plan warned about',
  ).to.deep.equal(warnings.map((d) => [d.path, d.summary]));
  return warnings.map((w, i) => {
    expect(w.detail, 'the warning says the apply looks again').to.include(` ${YET_TO_COME}`);
    expect(errors[i]!.detail, 'the refusal says nothing was sent').to.include(` ${NOT_SENT}`);
    return { path: w.path, summary: w.summary, detail: w.detail.slice(0, w.detail.indexOf(` ${YET_TO_COME}`)) };
  });
}
