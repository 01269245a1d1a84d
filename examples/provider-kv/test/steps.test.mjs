// The same provider as steps (terraform-plugin-testing's TestStep form), under each CLI that
// TF_ACC_TERRAFORM_PATH names: each step's plan, the state after it, an error a step must fail with,
// and an import that must read back what the state holds. Runs where TF_ACC is set.
// Check objects (planCheck, stateCheck, knownValue) say more than address → values: what is unknown at plan.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  acceptanceEnabled,
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
  main: fileURLToPath(new URL('../dist/main.js', import.meta.url)),
};

// The platform every step (and the import's fresh working directory) reaches: one store.
const config = (store, key, value) => `
terraform {
  required_providers {
    kv = { source = "acme/kv" }
  }
}

provider "kv" {
  path = ${JSON.stringify(store)}
}

resource "kv_entry" "app" {
  key   = ${key}
  value = ${JSON.stringify(value)}
}
`;

for (const cli of clisFromEnv()) {
  test(`kv in steps under ${cli}`, { skip: !acceptanceEnabled() && 'set TF_ACC=1 to run' }, async () => {
    const store = join(mkdtempSync(join(tmpdir(), 'kv-steps-')), 'store.json');
    const stored = () => JSON.parse(readFileSync(store, 'utf8'));
    await acceptanceTest({
      cli,
      provider,
      steps: [
        {
          config: config(store, 'provider::kv::key("team", "app")', 'one'),
          planChanges: { 'kv_entry.app': 'create' },
          state: { 'kv_entry.app': { id: 'team/app', value: 'one', version: 1 } },
          check: () => assert.equal(stored()['team/app'].value, 'one'),
        },
        {
          config: config(store, 'provider::kv::key("team", "app")', 'two'),
          planChanges: { 'kv_entry.app': 'update' },
          // The version changes with the value: the plan cannot know it.
          planChecks: [planCheck.unknownValue('kv_entry.app', 'version')],
          state: { 'kv_entry.app': { value: 'two' } },
          stateChecks: [stateCheck.knownValue('kv_entry.app', 'version', knownValue.exact(2))],
        },
        {
          config: config(store, 'provider::kv::key("team", "")', 'two'),
          expectError: /a part may not be empty/,
        },
        {
          config: config(store, 'provider::kv::key("team", "app")', 'two'),
          importState: { resource: 'kv_entry.app', verify: true },
        },
      ],
      checkDestroy: () => assert.deepEqual(stored(), {}),
    });
  });
}
