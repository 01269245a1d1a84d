// Run in the example provider's folder (test/framework/package.test.ts copies it there): acceptanceTest
// given steps that must not hold, one test each, under the CLI named first in TF_ACC_TERRAFORM_PATH.
// Prints one JSON line: per case, the error's message (or what happened instead).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AcceptanceError,
  acceptanceTest,
  clisFromEnv,
  knownValue,
  planCheck,
  stateCheck,
} from '@keel/provider-framework/testing';

const provider = {
  namespace: 'acme',
  name: 'kv',
  version: '0.1.0',
  main: fileURLToPath(new URL('./dist/main.js', import.meta.url)),
};
const [cli] = clisFromEnv();
const config = (store, key, value) =>
  `terraform {\n  required_providers {\n    kv = { source = "acme/kv" }\n  }\n}\n` +
  `provider "kv" {\n  path = ${JSON.stringify(store)}\n}\n` +
  `resource "kv_entry" "app" {\n  key   = ${JSON.stringify(key)}\n  value = ${JSON.stringify(value)}\n}\n`;

/** What the kv store holds once a test is over: the keys left on the "platform". */
const left = (store) => {
  try {
    return Object.keys(JSON.parse(readFileSync(store, 'utf8')));
  } catch {
    return [];
  }
};

async function outcome(steps, extra = {}) {
  const store = join(mkdtempSync(join(tmpdir(), 'kv-kit-')), 'store.json');
  try {
    const result = await acceptanceTest({ cli, provider, steps: steps(store), ...extra });
    return { ran: result.ran, left: left(store) };
  } catch (error) {
    return error instanceof AcceptanceError
      ? { step: error.step, phase: error.phase ?? null, message: error.message, left: left(store) }
      : { other: String(error) };
  }
}

const results = {
  planChanges: await outcome((s) => [{ config: config(s, 'a', '1'), planChanges: { 'kv_entry.app': 'update' } }]),
  state: await outcome((s) => [{ config: config(s, 'a', '1'), state: { 'kv_entry.app': { value: '2' } } }]),
  expectErrorApplied: await outcome((s) => [{ config: config(s, 'a', '1'), expectError: /anything/ }]),
  expectErrorOther: await outcome((s) => [
    { config: config(s, 'a', '1') },
    { config: config(s, 'a', '1').replace('"a"', 'provider::kv::key("a", "")'), expectError: /no such words/ },
  ]),
  // The platform changes the value outside Terraform: the next plan is not empty.
  drift: await outcome((s) => [
    {
      config: config(s, 'a', '1'),
      check: () => {
        const stored = JSON.parse(readFileSync(s, 'utf8'));
        writeFileSync(s, JSON.stringify({ a: { ...stored.a, value: 'changed' } }));
      },
    },
  ]),
  // The platform changes the value after the apply (a plan may then show it: expectNonEmptyPlan); the
  // import reads what the platform holds, which the state does not.
  importVerify: await outcome((s) => [
    {
      config: config(s, 'a', '1'),
      expectNonEmptyPlan: true,
      check: () => {
        const stored = JSON.parse(readFileSync(s, 'utf8'));
        writeFileSync(s, JSON.stringify({ a: { ...stored.a, value: 'changed' } }));
      },
    },
    { config: config(s, 'a', '1'), importState: { resource: 'kv_entry.app', verify: true } },
  ]),
  // A test that ends on a step meant to fail is destroyed with the configuration before it.
  endsOnError: await outcome(
    (s) => [
      { config: config(s, 'a', '1') },
      { config: config(s, 'a', '1').replace('"a"', 'provider::kv::key("a", "")'), expectError: /may not be empty/ },
    ],
    { checkDestroy: () => undefined },
  ),
  // The destroy fails nothing here, and the objects are gone, but the check says otherwise.
  checkDestroyFails: await outcome((s) => [{ config: config(s, 'a', '1') }], {
    checkDestroy: () => {
      throw new Error('the store still holds a');
    },
  }),
  // The step fields terraform-plugin-testing users reach for: skip, preConfig, configVariables, taint, refreshState.
  stepFields: await (async () => {
    const store = join(mkdtempSync(join(tmpdir(), 'kv-kit-')), 'store.json');
    const seen = [];
    const variable = config(store, 'a', '1').replace('value = "1"', 'value = var.value') + 'variable "value" {}\n';
    let tainted;
    try {
      const result = await acceptanceTest({
        cli,
        provider,
        steps: [
          { config: config(store, 'a', 'never'), skip: true },
          { config: config(store, 'a', 'never'), skip: async () => true },
          { config: variable, configVariables: { value: '1' }, state: { 'kv_entry.app': { value: '1' } } },
          {
            config: variable,
            configVariables: { value: '1' },
            taint: ['kv_entry.app'],
            planChanges: { 'kv_entry.app': 'delete,create' },
            check: () => {
              tainted = true;
            },
          },
          {
            config: variable,
            configVariables: { value: '1' },
            preConfig: () => {
              const stored = JSON.parse(readFileSync(store, 'utf8'));
              writeFileSync(store, JSON.stringify({ a: { ...stored.a, value: 'changed' } }));
              seen.push('preConfig');
            },
            refreshState: true,
            expectNonEmptyPlan: true,
            state: { 'kv_entry.app': { value: 'changed' } },
          },
        ],
      });
      if (!result.ran) return { ran: false, left: left(store) };
      return { ran: true, seen, replaced: tainted !== undefined, left: left(store) };
    } catch (error) {
      return { other: String(error), seen, left: left(store) };
    }
  })(),
  // Check objects, as terraform-plugin-testing's plancheck, statecheck and knownvalue: ones that hold, then ones that do not.
  checks: await outcome((s) => [
    {
      config: config(s, 'a', '1'),
      planChecks: [
        planCheck.resourceAction('kv_entry.app', 'create'),
        planCheck.unknownValue('kv_entry.app', 'version'),
        planCheck.knownValue('kv_entry.app', 'value', knownValue.exact('1')),
      ],
      stateChecks: [
        stateCheck.knownValue('kv_entry.app', 'version', knownValue.exact(1)),
        stateCheck.knownValue('kv_entry.app', 'id', knownValue.matches(/^a$/)),
      ],
    },
    {
      config: config(s, 'a', '2'),
      planChecks: [
        planCheck.resourceAction('kv_entry.app', 'update'),
        planCheck.unknownValue('kv_entry.app', 'version'),
      ],
    },
  ]),
  planChecksFail: await outcome((s) => [
    {
      config: config(s, 'a', '1'),
      planChecks: [
        planCheck.knownValue('kv_entry.app', 'version', knownValue.exact(1)),
        planCheck.sensitiveValue('kv_entry.app', 'value'),
      ],
    },
  ]),
  stateChecksFail: await outcome((s) => [
    {
      config: config(s, 'a', '1'),
      stateChecks: [stateCheck.knownValue('kv_entry.app', 'version', knownValue.exact(2))],
    },
  ]),
  holds: await outcome((s) => [
    {
      config: config(s, 'a', '1'),
      planChanges: { 'kv_entry.app': 'create' },
      state: { 'kv_entry.app': { value: '1' } },
    },
    { config: config(s, 'a', '1'), importState: { resource: 'kv_entry.app', verify: true } },
  ]),
};
process.stdout.write(`${JSON.stringify(results)}\n`);
