/**
 * The sec client's whole-object updates (src/clients/sec/replace.ts): what the answer schema names is
 * the request's, everything else the platform holds stays as read, at every depth the schema names.
 */
import { expect } from 'chai';
import { z } from 'zod';
import { modelledBy, overlay, withField } from '../../src/clients/sec/replace.js';
import { keyedRecord } from '../../src/clients/sec/wire.js';

const schema = z.object({
  name: z.string(),
  filters: z
    .object({
      description: z
        .string()
        .nullish()
        .transform((v) => v ?? ''),
      enabled: z.number(),
    })
    .optional(),
  tags: z.array(z.string()),
  data: z.record(z.string(), z.object({ key: z.string() })),
});

describe('sec client: whole-object updates keep what the provider does not model', () => {
  it('reads the fields a schema names, through optional, nullish and transformed values, maps and lists', () => {
    expect(modelledBy(schema)).to.deep.equal({
      kind: 'fields',
      fields: {
        name: { kind: 'whole' },
        filters: { kind: 'fields', fields: { description: { kind: 'whole' }, enabled: { kind: 'whole' } } },
        tags: { kind: 'whole' },
        data: { kind: 'values', values: { kind: 'fields', fields: { key: { kind: 'whole' } } } },
      },
    });
  });

  it('lays the request over the object as read: unnamed fields stay at every depth, named ones are the request’s', () => {
    const held = {
      name: 'old',
      consoleNote: 'kept',
      filters: { description: 'old', enabled: 1, profileVersions: ['v2'] },
      tags: ['a', 'b'],
      data: { first: { key: 'k', extra: 'kept' }, gone: { key: 'g' } },
    };
    const sent = { name: 'new', filters: { enabled: 0 }, tags: ['c'], data: { first: { key: 'k2' } } };
    expect(overlay(held, sent, modelledBy(schema))).to.deep.equal({
      name: 'new',
      consoleNote: 'kept',
      // `description` is named and left out of the request: cleared, as the request says.
      filters: { enabled: 0, profileVersions: ['v2'] },
      // A list is the request's.
      tags: ['c'],
      // Every key of a map is the provider's; inside a value, what its schema does not name stays.
      data: { first: { key: 'k2', extra: 'kept' } },
    });
  });

  it('a field modelled as a whole, or a request value that is not an object, is the request’s', () => {
    const whole = withField(modelledBy(schema), 'filters', { kind: 'whole' });
    expect(overlay({ filters: { x: 1 } }, { filters: { enabled: 1 } }, whole)).to.deep.equal({
      filters: { enabled: 1 },
    });
    expect(overlay({ filters: { x: 1 } }, { filters: null }, modelledBy(schema))).to.deep.equal({ filters: null });
  });

  it('reads a keyedRecord (also optional) as a map, and keeps keys named like Object members as entries', () => {
    const keyed = z.object({ data: keyedRecord(z.object({ key: z.string() })).optional() });
    expect(modelledBy(keyed)).to.deep.equal({
      kind: 'fields',
      fields: { data: { kind: 'values', values: { kind: 'fields', fields: { key: { kind: 'whole' } } } } },
    });
    // As the platform answers: JSON.parse keeps `__proto__` as an entry.
    const held = JSON.parse('{"__proto__":"console","toString":"kept","data":{"__proto__":{"key":"a","extra":1}}}');
    const sent = JSON.parse('{"data":{"__proto__":{"key":"b"}}}');
    const written = overlay(held, sent, modelledBy(keyed)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(written)).to.equal(Object.prototype);
    expect(JSON.stringify(written)).to.equal(
      '{"__proto__":"console","toString":"kept","data":{"__proto__":{"extra":1,"key":"b"}}}',
    );
  });
});
