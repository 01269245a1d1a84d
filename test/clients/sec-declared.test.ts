/**
 * A field the contract declares reaches the platform and comes back with no line in the client
 * (src/clients/sec/declared.ts) and one wiring entry in the resource (src/resources/sec/wired-fields.ts):
 * answers read it as the contract types it, requests carry it at its path, an update that replaces the
 * object whole clears it when unset and keeps what nothing wires, and a field the update's body lacks
 * makes its attribute replace the object. What every type's objects then do is held by
 * test/resources/every-argument.test.ts.
 */
import { attr } from '@keel/provider-framework';
import { expect } from 'chai';
import { z } from 'zod';
import { modelledWithDeclared, partialUpdate, placeDeclared, readingDeclared } from '../../src/clients/sec/declared.js';
import { modelledBy, overlay } from '../../src/clients/sec/replace.js';
import { leavesUnread } from '../../src/clients/sec/wire.js';
import { wireFields } from '../../src/resources/sec/wired-fields.js';

describe('sec client: fields the contract declares and the resource wires', () => {
  const own = z.object({ mcGuid: z.string(), filters: z.object({ name: z.string() }) });

  it('reads every field of the body the schema lacks, typed as the contract says, at every depth', () => {
    const schema = readingDeclared(own, 'ReportRules');
    const answer = schema.parse({
      mcGuid: 'R-1',
      intgGuidList: ['C-1'],
      filters: { name: 'n', enabled: 1, severity: [1, 2], notDeclared: 'x' },
      notDeclared: 'y',
    }) as Record<string, unknown>;
    expect(answer).to.deep.equal({
      mcGuid: 'R-1',
      intgGuidList: ['C-1'],
      filters: { name: 'n', enabled: true, severity: [1, 2] },
    });
    expect(() => schema.parse({ mcGuid: 'R-1', filters: { name: 'n', enabled: 'yes' } })).to.throw(/enabled/);
  });

  it('looks through optional and transformed objects, and leaves unread what the client leaves on purpose', () => {
    const inner = leavesUnread(z.object({ name: z.string() }), { profileVersions: 'kept as held' });
    const schema = readingDeclared(
      z.object({ mcGuid: z.string(), filters: inner.nullish().transform((f) => f ?? { name: '' }) }),
      'DataExportRules',
    );
    const answer = schema.parse({
      mcGuid: 'R',
      filters: { name: 'n', enabled: 0, profileVersions: ['v2'] },
    }) as { filters: object };
    expect(answer.filters).to.deep.equal({ name: 'n', enabled: false });
    expect(schema.parse({ mcGuid: 'R', filters: null })).to.deep.equal({ mcGuid: 'R', filters: { name: '' } });
  });

  it('models for an update what the client models, not what it reads besides', () => {
    expect(modelledBy(readingDeclared(own, 'ReportRules'))).to.deep.equal(modelledBy(own));
  });

  it('places each value at its path in a create, leaving an unset one out', () => {
    const body = placeDeclared({ filters: { name: 'n' } }, { 'filters.maxFindings': 5, 'top.deep.value': null });
    expect(body).to.deep.equal({ filters: { name: 'n', maxFindings: 5 }, top: { deep: {} } });
  });

  it('sends in an update only what its body declares, an unset one as null, which clears it', () => {
    const body = placeDeclared(
      { queryText: 'q' },
      { queryText: 'q2', evaluatorId: 'E', owner: null },
      partialUpdate('Queries:update'),
    );
    expect(body).to.deep.equal({ queryText: 'q2' });
    const cleared = placeDeclared({}, { queryText: null }, partialUpdate('Queries:update'));
    expect(cleared).to.deep.equal({ queryText: null });
  });

  it('clears a wired field a whole replacement leaves out, and keeps every field nothing wires', () => {
    const held = { mcGuid: 'R', filters: { name: 'old', maxFindings: 7, console: 'kept' }, extra: 1 };
    const sent = placeDeclared({ mcGuid: 'R', filters: { name: 'new' } }, { 'filters.maxFindings': null });
    const modelled = modelledWithDeclared(modelledBy(own), { 'filters.maxFindings': null });
    expect(overlay(held, sent, modelled)).to.deep.equal({
      mcGuid: 'R',
      filters: { name: 'new', console: 'kept' },
      extra: 1,
    });
    // Without the declared path, the field is the platform's and stays.
    expect(overlay(held, sent, modelledBy(own))).to.deep.include({
      filters: { name: 'new', maxFindings: 7, console: 'kept' },
    });
  });

  it("makes an attribute whose field the update's body lacks replace the object", () => {
    const wired = wireFields(
      'Queries',
      {
        query: attr.string({ required: true, description: 'text' }),
        evaluator: attr.string({ optional: true, description: 'evaluator' }),
      },
      { query: 'queryText', evaluator: 'evaluatorId' },
      { update: 'Queries:update' },
    );
    expect(wired.fields.evaluator.options.replace).to.equal(true);
    expect(wired.fields.query.options.replace).to.equal(undefined);
    expect(wired.declared({ query: 'q', evaluator: null })).to.deep.equal({ queryText: 'q', evaluatorId: null });
    expect(wired.read({ queryText: 'q' })).to.deep.equal({ query: 'q', evaluator: null });
  });
});
