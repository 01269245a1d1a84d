// The provider's logic in this process, with no Terraform: the test kit's harness plans and applies
// each change as Terraform would, against a store in a temporary folder, in milliseconds.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { UNKNOWN } from '@keel/provider-framework';
import { HarnessError, ProviderHarness } from '@keel/provider-framework/testing';
import { kv } from '../dist/provider.js';

let folder;
let store;
let harness;
const stored = () => JSON.parse(readFileSync(store, 'utf8'));

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'kv-unit-'));
  store = join(folder, 'store.json');
  harness = await ProviderHarness.start(kv, { config: { path: store } });
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

test('creates, updates, replaces and destroys an entry', async () => {
  const created = await harness.create('kv_entry', { key: 'team/db', value: 'one' });
  assert.deepEqual(created, { id: 'team/db', key: 'team/db', value: 'one', version: 1 });

  // `version` is unknown in the plan only because `value` changes (changesWith).
  const plan = await harness.plan('kv_entry', { prior: created, config: { key: 'team/db', value: 'two' } });
  assert.equal(plan.action, 'update');
  assert.deepEqual(plan.planned, { ...created, value: 'two', version: UNKNOWN });
  const updated = await harness.apply('kv_entry', { prior: created, config: { key: 'team/db', value: 'two' } });
  assert.deepEqual(stored()['team/db'], { key: 'team/db', value: 'two', version: 2 });

  // A new key replaces the entry: the old one is deleted, the new one created.
  const moved = { key: 'team/cache', value: 'two' };
  assert.deepEqual((await harness.plan('kv_entry', { prior: updated, config: moved })).requiresReplace, ['key']);
  const replaced = await harness.apply('kv_entry', { prior: updated, config: moved });
  assert.deepEqual(Object.keys(stored()), ['team/cache']);

  await harness.destroy('kv_entry', replaced);
  assert.deepEqual(stored(), {});
});

test('imports an entry by its key or by its identity', async () => {
  writeFileSync(store, JSON.stringify({ cache: { key: 'cache', value: 'warm', version: 7 } }));
  const expected = { id: 'cache', key: 'cache', value: 'warm', version: 7 };
  assert.deepEqual(await harness.importState('kv_entry', 'cache'), expected);
  assert.deepEqual(await harness.importState('kv_entry', { identity: { key: 'cache' } }), expected);
  await assert.rejects(harness.importState('kv_entry', 'nothing'), HarnessError);
});

test('reads the data source and calls the function', async () => {
  await harness.create('kv_entry', { key: 'team/db', value: 'one' });
  assert.equal((await harness.readDataSource('kv_entry', { key: 'team/db' })).version, 1);
  assert.equal(harness.callFunction('key', ['team', 'db']), 'team/db');
  // The error names the argument at fault, as Terraform shows it.
  assert.throws(() => harness.callFunction('key', ['team', '']), (error) => error.diagnostics[0].argument === 1);
});
