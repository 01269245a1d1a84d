/**
 * The emulators' string formats (src/emulators/core/body-spec.ts), which a new type's fields pick
 * from: each takes what the platform takes and answers anything else with the platform's 400,
 * naming the field.
 */
import { expect } from 'chai';
import { field, validate, type StringFormat } from '../../src/emulators/core/body-spec.js';

const refusal = (format: StringFormat, value: string): string | undefined => {
  try {
    validate(field.string({ format }), value, 'data.url');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('emulators: string formats', () => {
  it('url takes http and https URLs only', () => {
    expect(refusal('url', 'https://hooks.example.com/x')).to.equal(undefined);
    expect(refusal('url', 'http://hooks.example.com/x')).to.equal(undefined);
    expect(refusal('url', 'ftp://hooks.example.com/x')).to.equal(
      'data.url must be an http(s) URL (got "ftp://hooks.example.com/x")',
    );
    expect(refusal('url', 'not a url')).to.match(/must be an http\(s\) URL/);
  });

  it('https-url takes https URLs only', () => {
    expect(refusal('https-url', 'https://hooks.example.com/x')).to.equal(undefined);
    expect(refusal('https-url', 'http://hooks.example.com/x')).to.equal(
      'data.url must be an https URL (got "http://hooks.example.com/x")',
    );
    expect(refusal('https-url', 'hooks.example.com')).to.match(/must be an https URL/);
  });
});
