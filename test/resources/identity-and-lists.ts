/**
 * Resource identity (Terraform 1.12+) and list resources (`terraform query`, 1.14+) for every resource
 * type of a provider, through the real executable and the Terraform-side client (which behaves as
 * Terraform 1.12+ does: it keeps each state's identity and judges every returned identity as
 * Terraform does), against the emulator. The tables, one row per type, are
 * test/resources/sec/identity-and-lists.test.ts and test/resources/vdb/identity-and-lists.test.ts;
 * for each row:
 *
 * - the identity is known after the create and names the object (its id, account, cluster, …);
 * - a refresh and a re-plan keep it;
 * - a `terraform query` of the type finds the object, with its identity and display name, and with
 *   `include_resource` the state that an import of it reaches;
 * - an `import { identity = {...} }` of that listed identity, with only the required attributes,
 *   reaches the same state as an import by id, and the same identity;
 * - a walk's second read of the type in a fresh process, taken from the type's listing where its
 *   resource declares `readsByListing` (no call names the object), reaches the state its first read,
 *   alone, reached;
 * - after the destroy, the query no longer finds it.
 *
 * A table must have a row for every resource type its provider registers: the first test says which
 * row to add, and where.
 */
import { expect } from 'chai';
import { type TerraformClient, configValue, ProviderCallError } from '../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../packages/framework/src/schema/value-ops.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { failOnProblems, tableProblems } from '../support/type-tables.js';
import { inScope } from '../support/types-in-scope.js';

export type Plain = Record<string, unknown>;

/** What a table's tests run against. */
export interface TableSetup {
  tf: TerraformClient;
  /** Another process of the provider, configured as `tf` is, which has changed nothing yet. */
  fresh: () => Promise<TerraformClient>;
  /** The calls the emulator received so far, oldest first, each with what names its object. */
  calls: () => readonly string[];
  close: () => Promise<void>;
}

export interface Case {
  type: string;
  config: () => Plain;
  /** The identity the object must have, from its state; default `{ id }`. */
  identity?: (state: ObjectValue) => Plain;
  /** What a query shows for it; default its `name`. */
  displayName?: (state: ObjectValue) => string;
  /** The `config` of the `list` block that finds it (default: none). */
  filters?: (state: ObjectValue) => Plain;
  /** Why it has no list resource (the API cannot list what it manages). */
  notListed?: string;
  /** Why it cannot be imported. */
  notImportable?: string;
  /** The import id, when the type has one besides `id`. */
  importId?: (state: ObjectValue) => string;
  /** Waits until the object stops changing on its own (a backup running), so reads compare equal. */
  settle?: () => void;
}

export const byId = (s: ObjectValue) => ({ id: s.id });

/** The row to add for a type the table lacks, as the message of the completeness test shows it. */
const caseEntry = (type: string) =>
  `{ type: '${type}', config: () => ({ ...the arguments of one object }) }, with identity, displayName, ` +
  'filters and importId where the defaults (Case in test/resources/identity-and-lists.ts) do not fit, ' +
  'or notListed and notImportable saying why the type has no list resource or import';

/** Where the list resources the executable declares and the rows that say `notListed` disagree. */
function listProblems(declared: readonly string[], cases: readonly Case[], where: string): string[] {
  const byType = new Map(cases.map((c) => [c.type, c]));
  return [
    ...declared
      .filter((type) => !byType.has(type))
      .map((type) => `${type} has a list resource but no entry in ${where}`),
    ...declared
      .filter((type) => byType.get(type)?.notListed)
      .map((type) => `${type} has a list resource, but its entry in ${where} says notListed; remove notListed`),
    ...cases
      .filter((c) => !c.notListed && !declared.includes(c.type))
      .map(
        (c) =>
          `${c.type} has no list resource; give its entry in ${where} ` +
          "notListed: '<why the API cannot list what it manages>'",
      ),
  ];
}

/** The top-level attributes whose values differ, with both values, for readable failures. */
function differences(a: ObjectValue, b: ObjectValue): string[] {
  return Object.keys(a)
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k}: ${JSON.stringify(a[k])} ≠ ${JSON.stringify(b[k])}`);
}

/**
 * The tests of one provider's table. `table` names it and its file, for the messages of the
 * completeness test.
 */
export function runTable(
  provider: 'sec' | 'vdb',
  cases: Case[],
  table: { name: string; file: string },
  start: () => Promise<TableSetup>,
): void {
  describe(`${provider}: identity and list resource of every resource type`, function () {
    this.timeout(120_000);
    let tf: TerraformClient;
    let setup: TableSetup;
    let listsForReads: ReadonlySet<string>;
    before(async () => {
      setup = await start();
      tf = setup.tf;
      const def = await loadProviderDef(provider);
      listsForReads = new Set(def.resources.filter((r) => r.readsByListing).map((r) => r.typeName));
    });
    after(async () => setup?.close());

    it('covers every resource type of the provider, and declares exactly the list resources the table expects', async () => {
      const def = await loadProviderDef(provider);
      const where = `${table.name} in ${table.file}`;
      failOnProblems(
        `the ${provider} resource types and ${where}`,
        tableProblems(
          { what: `${provider} resource type`, where, entry: caseEntry },
          def.resources.map((r) => r.typeName),
          cases.map((c) => c.type),
        ),
      );
      failOnProblems(`the ${provider} list resources and ${where}`, listProblems(tf.listResourceTypes, cases, where));
      for (const c of cases)
        expect(tf.identitySchema(c.type), `${c.type} declares an identity`).to.not.equal(undefined);
    });

    /** A walk's first read of `type` alone, its second from the listing where the type declares one: one state. */
    async function readsAloneAndListed(type: string, state: ObjectValue): Promise<void> {
      const reader = await setup.fresh();
      try {
        const start = setup.calls().length;
        const alone = (await reader.read(type, state)).state!;
        const between = setup.calls().length;
        const listed = (await reader.read(type, state)).state!;
        const second = setup.calls().slice(between);
        expect(differences(listed, alone), 'a read from the listing reaches the state a read alone does').to.deep.equal(
          [],
        );
        if (listsForReads.has(type)) {
          const names = (calls: readonly string[]) => calls.some((call) => call.includes(state.id as string));
          expect(names(setup.calls().slice(start, between)), 'the first read, alone, asks for the object').to.equal(
            true,
          );
          expect(names(second), `the second read, from the listing, names no object (${second.join('; ')})`).to.equal(
            false,
          );
        }
      } finally {
        await reader.close();
      }
    }

    // Each type in scope (a quick run's); the coverage test above takes every one.
    for (const c of cases.filter((row) => inScope(row.type))) {
      it(`${c.type}: ${c.notListed ? 'identity known after create, kept by refresh and plan' : 'identity kept from create to destroy; query finds it, its import reaches the listed state'}`, async () => {
        const block = tf.resourceSchema(c.type).block;
        const cfg = configValue(block, c.config());
        await tf.validateResource(c.type, cfg);
        const change = await tf.plan(c.type, null, cfg);
        // A create plans no identity: Terraform learns it from the apply.
        expect(change.plannedIdentity, 'planned identity of a create').to.equal(null);
        const state = (await tf.apply(c.type, null, change, cfg)).state!;
        c.settle?.();
        const expected = (c.identity ?? byId)(state) as ObjectValue;
        expect(
          Object.values(expected).every((v) => typeof v === 'string' && v !== ''),
          'the expected identity is complete',
        ).to.equal(true);
        expect(tf.identityOf(state), 'identity after create').to.deep.equal(expected);

        const read = (await tf.read(c.type, state)).state!;
        expect(tf.identityOf(read), 'identity after refresh').to.deep.equal(expected);
        await readsAloneAndListed(c.type, read);
        const again = await tf.plan(c.type, read, cfg);
        expect(again.plannedIdentity, 'identity of an update plan').to.deep.equal(expected);

        const required = Object.fromEntries(
          [...tf.identitySchema(c.type)!.attributes]
            .filter(([, a]) => a.requiredForImport)
            .map(([n]) => [n, expected[n] as string]),
        );
        if (c.notImportable) {
          const err = await tf.importByIdentity(c.type, required).then(
            () => null,
            (e: unknown) => e,
          );
          expect(err, c.notImportable).to.be.instanceOf(ProviderCallError);
          expect((err as ProviderCallError).diagnostics.map((d) => d.summary)).to.deep.equal(['Import not supported']);
        } else {
          const imported = await tf.importByIdentity(c.type, required);
          expect(tf.identityOf(imported), 'identity after an import by identity').to.deep.equal(expected);
          const byImportId = await tf.importState(c.type, c.importId ? c.importId(state) : (state.id as string));
          expect(
            differences(imported, byImportId),
            'an import by identity reaches the state an import by id reaches',
          ).to.deep.equal([]);
          expect(tf.identityOf(byImportId), 'identity after an import by id').to.deep.equal(expected);

          if (!c.notListed) {
            const filters = c.filters?.(state) ?? null;
            const listed = await tf.list(c.type, filters, { includeResource: true });
            const mine = listed.filter((r) => valueEquals(tf.identitySchema(c.type)!.type, r.identity, expected));
            expect(mine, 'the query finds the object once').to.have.length(1);
            expect(mine[0]!.displayName).to.equal((c.displayName ?? ((s) => s.name as string))(state));
            expect(
              differences(mine[0]!.state!, imported),
              'the listed object is the state its import reaches',
            ).to.deep.equal([]);
            // What -generate-config-out turns into an import block: the listed identity, then a read.
            const fromQuery = await tf.importByIdentity(
              c.type,
              Object.fromEntries(Object.entries(mine[0]!.identity).map(([k, v]) => [k, v as string])),
            );
            expect(differences(fromQuery, imported), 'the import of a listed identity').to.deep.equal([]);
            const bare = await tf.list(c.type, filters, { includeResource: false, limit: 1 });
            expect(
              bare.map((r) => r.state),
              'without include_resource, no objects; at most `limit` results',
            ).to.deep.equal([null]);
          }
        }
        await tf.apply(c.type, read, await tf.plan(c.type, read, null), null);
        if (!c.notListed) {
          const after = await tf.list(c.type, c.filters?.(state) ?? null);
          expect(
            after.filter((r) => valueEquals(tf.identitySchema(c.type)!.type, r.identity, expected)),
            'the query no longer finds it',
          ).to.deep.equal([]);
        }
      });
    }
  });
}
