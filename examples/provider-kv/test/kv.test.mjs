// The provider's whole cycle under each CLI that TF_ACC_TERRAFORM_PATH names (terraform from PATH
// when unset): init, plan, apply, an empty re-plan, an update, an import, a destroy. Runs where TF_ACC
// is set, as acceptance tests do.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  acceptanceEnabled,
  assertChanges,
  assertNoChanges,
  CliWorkspace,
  clisFromEnv,
} from '@keel/provider-framework/testing';

const provider = {
  namespace: 'acme',
  name: 'kv',
  version: '0.1.0',
  main: fileURLToPath(new URL('../dist/main.js', import.meta.url)),
};

const config = (store, value) => `
terraform {
  required_providers {
    kv = { source = "acme/kv" }
  }
}

provider "kv" {
  path = ${JSON.stringify(store)}
}

resource "kv_entry" "db" {
  key   = provider::kv::key("team", "db")
  value = ${JSON.stringify(value)}
}

data "kv_entry" "db" {
  key = kv_entry.db.key
}

output "db_version" {
  value = data.kv_entry.db.version
}
`;

for (const cli of clisFromEnv()) {
  test(`kv under ${cli}`, { skip: !acceptanceEnabled() && 'set TF_ACC=1 to run' }, async () => {
    const ws = await CliWorkspace.create({ cli, provider });
    const store = join(ws.dir, 'store.json');
    const stored = () => JSON.parse(readFileSync(store, 'utf8'));
    try {
      await ws.writeConfig(config(store, 'one'));
      await ws.init();
      assertChanges(await ws.plan(), { 'kv_entry.db': 'create', 'data.kv_entry.db': 'read' });
      await ws.apply();
      assert.deepEqual(stored()['team/db'], { key: 'team/db', value: 'one', version: 1 });
      assert.equal((await ws.resource('data.kv_entry.db')).value, 'one');
      assertNoChanges(await ws.plan());

      await ws.writeConfig(config(store, 'two'));
      assertChanges(await ws.plan(), { 'kv_entry.db': 'update', 'data.kv_entry.db': 'read' });
      await ws.apply();
      assert.equal((await ws.resource('kv_entry.db')).version, 2);
      assertNoChanges(await ws.plan());

      // An entry made outside Terraform, taken into the state by its key.
      writeFileSync(store, JSON.stringify({ ...stored(), cache: { key: 'cache', value: 'warm', version: 7 } }));
      await ws.writeConfig(`resource "kv_entry" "cache" {\n  key   = "cache"\n  value = "warm"\n}\n`, 'cache.tf');
      await ws.importResource('kv_entry.cache', 'cache');
      assert.deepEqual(await ws.resource('kv_entry.cache'), { id: 'cache', key: 'cache', value: 'warm', version: 7 });
      assertNoChanges(await ws.plan());

      await ws.destroy();
      assert.deepEqual(stored(), {});
    } finally {
      ws.dispose();
    }
  });
}
