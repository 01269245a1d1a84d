/**
 * Known-valid configurations that refer to real objects: every example of a provider applied once
 * under real Terraform (one workspace, test/acceptance/examples-workspace.ts), each example's resource
 * under test read back from the state as a configuration, then destroyed again, so that the property
 * runs can make objects with the same natural keys while the objects it refers to (clusters, roles,
 * alert channels…) stay.
 */
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import {
  type Case,
  ExamplesWorkspace,
  loadCases,
  type EmulatorHandle,
  type Provider,
} from '../acceptance/examples-workspace.js';
import { configOf } from './configs.js';
import type { Subject } from './lifecycle.js';

export interface Bases {
  readonly examples: ExamplesWorkspace;
  readonly subjects: Subject[];
}

export async function applyExamples(
  provider: Provider,
  def: ProviderDef<any, any>,
  emulator: EmulatorHandle,
  cases: readonly Case[] = loadCases(provider),
): Promise<Bases> {
  const examples = await ExamplesWorkspace.create(provider, cases, emulator.env);
  try {
    await examples.ws.expect(['apply', '-auto-approve', '-parallelism=20']);
    const state = await examples.ws.state();
    const subjects = examples.resources.map((c): Subject => {
      const r = def.resources.find((x) => x.typeName === c.address.split('.')[0]);
      const res = state.get(examples.address(c));
      if (!r || !res) throw new Error(`${c.type}: no resource ${examples.address(c)} in the state`);
      return { type: r.typeName, fields: r.schema.fields, case: c, base: configOf(r.schema.fields, res.values) };
    });
    await examples.ws.expect([
      'destroy',
      '-auto-approve',
      '-parallelism=20',
      ...examples.resources.map((c) => `-target=${examples.address(c)}`),
    ]);
    return { examples, subjects };
  } catch (err) {
    examples.dispose();
    throw err;
  }
}
