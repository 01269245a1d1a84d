/**
 * The registry pages list a nested attribute (`attr.nested`) as they list a block: a bullet naming
 * its shape as the registry does ("Attributes", "Attributes List", ...) and a section of its inner
 * attributes, arguments first, then what it exports (src/docs/fields.ts).
 */
import { expect } from 'chai';
import { renderFieldsOf } from '../../src/docs/fields.js';
import { serverSchema } from '../support/nested-things.js';

describe('reference pages: nested attributes', () => {
  const rendered = renderFieldsOf(serverSchema, { what: 'resource' });
  const text = rendered.nested.join('\n');

  it('a bullet with the shape, linking to its section', () => {
    const rules = rendered.arguments.find((l) => l.startsWith('* `rules`'))!;
    expect(rules).to.equal(
      '* `rules` - (Optional, Attributes List) The rules, in order. See [`rules`](#nested--rules) below.',
    );
    expect(rendered.arguments.find((l) => l.startsWith('* `settings`'))).to.contain('(Optional, Attributes)');
    expect(rendered.arguments.find((l) => l.startsWith('* `members`'))).to.contain('(Optional, Attributes Set)');
    expect(rendered.arguments.find((l) => l.startsWith('* `ports`'))).to.contain('(Optional, Attributes Map)');
  });

  it('a section of the inner attributes: arguments, then what the platform computes', () => {
    expect(text).to.contain(
      [
        '<a id="nested--rules"></a>',
        '### `rules` attribute',
        '',
        'Each object of `rules` (Attributes List) supports:',
        '',
        '* `port` - (Required, Number) The port. Must be a whole number from 1 to 65535.',
        '* `protocol` - (Optional, String) The protocol (`tcp` when unset). Computed when not set.',
        '',
        'It also exports:',
        '',
        '* `rule_id` - (String) The id the platform gave the rule.',
      ].join('\n'),
    );
    expect(text).to.contain('### `settings` attribute\n\nThe `settings` object supports:');
  });
});
