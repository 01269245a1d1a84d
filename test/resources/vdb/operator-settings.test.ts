/**
 * The hybrid environment's advanced operator settings: YAML read and printed by the `yaml` package
 * with this provider's rules (src/resources/vdb/operator-settings.ts). A property: every value the
 * platform can hold (a protobuf Struct) prints as YAML that reads back as the same value. Then the
 * bugs of the hand-written parser it replaced, and each refusal with its line and column.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { JsonValue } from '../../../src/clients/vdb/api.js';
import {
  ALIAS_EXPANSION_LIMIT,
  MAX_DEPTH,
  SettingsYamlError,
  parseSettings,
  printSettings,
  sameData,
  sameSettings,
  settingsProblem,
  type SettingsObject,
} from '../../../src/resources/vdb/operator-settings.js';

const SEED = 39_2;

/** An object with these entries, `__proto__` included as an entry (JSON.parse does the same). */
function objectOf(entries: [string, JsonValue][]): SettingsObject {
  const out: SettingsObject = {};
  for (const [key, value] of entries)
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** Keys YAML or JavaScript could take for something else. */
const TRICKY_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'null',
  'Null',
  '~',
  'true',
  'false',
  'yes',
  'on',
  'y',
  '1',
  '-1',
  '0x1F',
  '0o7',
  '1e3',
  '.inf',
  '.nan',
  '<<',
  '=',
  '- a',
  '? x',
  'a: b',
  'a #b',
  '#',
  '&a',
  '*a',
  '!t',
  '%x',
  '@',
  '`',
  '---',
  '...',
  '"',
  "'",
  '\\',
  'a\nb',
  '\t',
  'é',
  '\u{1F600}',
];

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.string({ unit: 'grapheme', maxLength: 16 }),
  fc.string({
    unit: fc.constantFrom(
      "'",
      '"',
      '\\',
      '\n',
      '\r',
      '\t',
      ' ',
      '#',
      ':',
      '-',
      '\u0000',
      '\u0085',
      '\u2028',
      '\uFEFF',
      'x',
    ),
    maxLength: 12,
  }),
  fc.constantFrom(...TRICKY_KEYS),
);
/** Well-formed text only: the platform's strings are UTF-8, and protobuf refuses a lone surrogate. */
const platformText = text.filter((s) => !/\p{Cs}/u.test(s));
const platformNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 2 ** 53, 2 ** 53 + 2, 2 ** 60, -(2 ** 63), 1e21, 5e-324, Number.MAX_VALUE, 0.1),
);

const { value: platformValue } = fc.letrec<{ value: JsonValue; object: SettingsObject }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    platformNumber,
    platformText,
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc
    .uniqueArray(fc.tuple(platformText, tie('value')), { selector: ([key]) => key, maxLength: 5 })
    .map(objectOf),
}));
const platformSettings = fc
  .uniqueArray(fc.tuple(platformText, platformValue), { selector: ([key]) => key, maxLength: 6 })
  .map(objectOf);

/** Exact equality, -0 apart from 0 and `__proto__` as an entry (chai's deep equality does both). */
const expectSame = (actual: JsonValue, expected: JsonValue) => expect(actual).to.deep.equal(expected);

describe('vdb advanced operator settings (YAML)', () => {
  it('every value the platform can hold prints as YAML that reads back as itself', function () {
    this.timeout(60_000);
    fc.assert(
      fc.property(platformSettings, (value) => {
        const printed = printSettings(value);
        expectSame(parseSettings(printed), value);
        expect(settingsProblem(printed)).to.equal(undefined);
        expect(sameSettings(printed, printSettings(structuredClone(value)))).to.equal(true);
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it('prints keys sorted, in block style, quoting what a YAML 1.1 reader would take for something else', () => {
    expect(printSettings({ b: 'x y', a: ['1', 2, true], c: {}, d: 'yes', '<<': 'on' })).to.equal(
      ['"<<": "on"', 'a:', '  - "1"', '  - 2', '  - true', 'b: x y', 'c: {}', 'd: "yes"', ''].join('\n'),
    );
    // 2^60 whole would be an integer literal that is not exact; in exponent form it is the same float64.
    expect(printSettings({ big: 2 ** 60 })).to.equal('big: 1.152921504606847e+18\n');
    expect(parseSettings(printSettings({ big: 2 ** 60 }))).to.deep.equal({ big: 2 ** 60 });
  });

  describe('the hand-written parser and printer it replaces', () => {
    it('a text with a backslash before a quote is printed as YAML that reads back (state it can read)', () => {
      const value = parseSettings("path: a\\'b");
      expect(value).to.deep.equal({ path: "a\\'b" });
      const printed = printSettings(value as SettingsObject);
      expect(parseSettings(printed)).to.deep.equal(value);
      expect(sameSettings(printed, "path: a\\'b")).to.equal(true);
    });

    it('a __proto__ key is an entry like any other, at every level, and touches no prototype', () => {
      const value = parseSettings('__proto__: {polluted: true}\nx:\n  __proto__: 1\n') as SettingsObject;
      expect(Object.keys(value)).to.deep.equal(['__proto__', 'x']);
      expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).to.deep.equal({ polluted: true });
      expect(Object.keys(value.x as SettingsObject)).to.deep.equal(['__proto__']);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(parseSettings(printSettings(value))).to.deep.equal(value);
      expect(sameSettings('__proto__: 1', 'other: 1')).to.equal(false);
      expect(sameSettings('__proto__: 1', '"__proto__": 1.0')).to.equal(true);
    });

    it('refuses invalid YAML, at its line and column', () => {
      expect(() => parseSettings('k: a: b')).to.throw(SettingsYamlError, /^line 1, column 4: Nested mappings/);
      expect(settingsProblem('x: 1\nk: a: b')).to.match(/^must be valid YAML \(line 2, column 4: /);
      expect(() => parseSettings('a: "a\\\'b"')).to.throw(
        SettingsYamlError,
        /^line 1, column 6: Invalid escape sequence/,
      );
    });

    it('reads valid YAML: multi-line flow collections, escapes, multi-line plain scalars', () => {
      expect(parseSettings('a: [1,\n  2]\nb: {x: 1,\n  y: [p,\n    q]}')).to.deep.equal({
        a: [1, 2],
        b: { x: 1, y: ['p', 'q'] },
      });
      expect(parseSettings('a: "\\x41\\u00e9\\U0001F600\\t\\N"')).to.deep.equal({ a: 'A\u00e9\u{1F600}\t\u0085' });
      expect(parseSettings('a: one\n  two\n\n  three')).to.deep.equal({ a: 'one two\nthree' });
    });
  });

  it('reads what configuration files use: block and flow collections, quoted and block scalars, comments', () => {
    const doc = [
      'operator:',
      '  replicas: 2 # a comment',
      '  image: "repo/op:1.2"',
      '  flags: [a, b, "c d"]',
      '  env:',
      '    - name: X',
      "      value: 'it''s'",
      '    - name: Y',
      '      value: 1.5',
      '  list:',
      '  - 1',
      '  - true',
      '  - ~',
      'script: |',
      '  line1',
      '  line2',
    ].join('\n');
    expect(parseSettings(doc)).to.deep.equal({
      operator: {
        replicas: 2,
        image: 'repo/op:1.2',
        flags: ['a', 'b', 'c d'],
        env: [
          { name: 'X', value: "it's" },
          { name: 'Y', value: 1.5 },
        ],
        list: [1, true, null],
      },
      script: 'line1\nline2\n',
    });
    expect(parseSettings('')).to.equal(null);
    expect(parseSettings('# only a comment\n')).to.equal(null);
    expect(parseSettings('--- {a: 0x1F, b: 0o17, c: +5, d: -0.5e1, e: .5}\n...\n')).to.deep.equal({
      a: 31,
      b: 15,
      c: 5,
      d: -5,
      e: 0.5,
    });
  });

  it('compares by meaning: key order, layout, comments and quoting are no change; a value is', () => {
    expect(sameSettings('a: 1\nb: "two"', 'b: two # x\na: 1')).to.equal(true);
    expect(sameSettings('a: [1, 2]', 'a:\n- 1\n- 2\n')).to.equal(true);
    expect(sameSettings('a: 1', 'a: "1"')).to.equal(false);
    expect(sameSettings('a: [1, 2]', 'a: [2, 1]')).to.equal(false);
    expect(sameSettings('1: x', '"1": x')).to.equal(true);
    // A text that cannot be read is the same only as itself.
    expect(sameSettings('a: [', 'a: [')).to.equal(true);
    expect(sameSettings('a: [', 'a: [ ')).to.equal(false);
    expect(sameData({ a: [1, { b: null }] }, objectOf([['a', [1, { b: null }]]]))).to.equal(true);
  });

  it('keys are strings: a scalar key is its text; a collection or alias as a key is refused', () => {
    expect(parseSettings('1: a\n1.0: b\ntrue: c\n~: d\n: e')).to.deep.equal({
      '1': 'a',
      '1.0': 'b',
      true: 'c',
      '~': 'd',
      '': 'e',
    });
    expect(() => parseSettings('? [a, b]\n: x')).to.throw(
      SettingsYamlError,
      /^line 1, column 3: a key must be a scalar/,
    );
    expect(() => parseSettings('{a: 1}: x')).to.throw(SettingsYamlError, /^line 1, column 1: a key must be a scalar/);
    expect(() => parseSettings('k: &k a\n*k : 2')).to.throw(SettingsYamlError, /^line 2, column 1: a key must/);
  });

  it('refuses duplicate keys (as texts), several documents, merge keys and tags beyond the core schema', () => {
    expect(() => parseSettings('a: 1\nb: 2\na: 3')).to.throw(
      SettingsYamlError,
      /^line 3, column 1: Map keys must be unique/,
    );
    expect(() => parseSettings('1: a\n"1": b')).to.throw(
      SettingsYamlError,
      /^line 2, column 1: Map keys must be unique/,
    );
    expect(() => parseSettings('a: 1\n---\nb: 2')).to.throw(
      SettingsYamlError,
      /^line 2, column 1: only one YAML document/,
    );
    expect(() => parseSettings('base: &b {x: 1}\nc:\n  <<: *b')).to.throw(
      SettingsYamlError,
      /^line 3, column 3: merge keys \(<<\) are not supported/,
    );
    expect(parseSettings('"<<": 1')).to.deep.equal({ '<<': 1 });
    for (const [doc, column] of [
      ['a: !!binary aGVsbG8=', 4],
      ['a: !!timestamp 2001-12-14', 4],
      ['a: !!set {x}', 4],
      ['a: !custom x', 4],
    ] as const) {
      expect(() => parseSettings(doc), doc).to.throw(
        SettingsYamlError,
        new RegExp(`^line 1, column ${column}: Unresolved tag.*core schema`),
      );
    }
    expect(parseSettings('a: !!str 12\nb: !!int "7"')).to.deep.equal({ a: '12', b: 7 });
    expect(() => parseSettings('%YAML 1.1\n---\na: yes')).to.throw(SettingsYamlError, /only YAML 1\.2.*%YAML 1\.1/);
    expect(parseSettings('%YAML 1.2\n---\na: yes')).to.deep.equal({ a: 'yes' });
  });

  it('expands anchors and aliases as copies, within a bound; an alias inside its own anchor is refused', () => {
    expect(parseSettings('a: &x {b: [1, 2]}\nc: *x\nd: &s text\ne: *s')).to.deep.equal({
      a: { b: [1, 2] },
      c: { b: [1, 2] },
      d: 'text',
      e: 'text',
    });
    // Nine levels of nine aliases: 9^9 values if expanded; refused after the bound, at once.
    const bomb = ['l0: &l0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 9; i++)
      bomb.push(
        `l${i}: &l${i} [${Array(9)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const started = process.hrtime.bigint();
    expect(() => parseSettings(bomb.join('\n'))).to.throw(
      SettingsYamlError,
      new RegExp(`more than ${ALIAS_EXPANSION_LIMIT} values`),
    );
    // Generous for a loaded machine: the expansion stops at the bound, not at 387 million values.
    expect(Number(process.hrtime.bigint() - started) / 1e6).to.be.below(5_000);
    expect(() => parseSettings('a: &x [1, *x]')).to.throw(
      SettingsYamlError,
      /^line 1, column 11: the alias \*x is inside its own anchor/,
    );
    expect(() => parseSettings('a: *nowhere')).to.throw(SettingsYamlError, /^line 1, column 4: /);
  });

  it('refuses numbers the platform cannot hold as written, and text that is not Unicode', () => {
    expect(() => parseSettings('a: .inf')).to.throw(
      SettingsYamlError,
      /^line 1, column 4: \.inf is not a finite number/,
    );
    expect(() => parseSettings('a: [1, .NaN]')).to.throw(SettingsYamlError, /^line 1, column 8: \.NaN is not a finite/);
    expect(parseSettings('a: -.nan')).to.deep.equal({ a: '-.nan' });
    expect(() => parseSettings('a: 1e400')).to.throw(SettingsYamlError, /1e400 is not a finite number/);
    expect(() => parseSettings('a: 9007199254740993')).to.throw(
      SettingsYamlError,
      /^line 1, column 4: 9007199254740993 cannot be held exactly.*quote it/,
    );
    expect(() => parseSettings('a: 0x20000000000001')).to.throw(SettingsYamlError, /cannot be held exactly/);
    expect(parseSettings('a: 9007199254740992\nb: 1152921504606846976\nc: 0.1')).to.deep.equal({
      a: 2 ** 53,
      b: 2 ** 60,
      c: 0.1,
    });
    expect(() => parseSettings('a: "\\ud800"')).to.throw(
      SettingsYamlError,
      /^line 1, column 4: a text holds a lone surrogate/,
    );
    expect(parseSettings('a: "\\ud83d\\ude00"')).to.deep.equal({ a: '\u{1F600}' });
  });

  it('bounds nesting at what the client can decode back, and survives nesting far beyond it', () => {
    const nested = (levels: number) => `a: ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}`;
    expect(() => parseSettings(nested(MAX_DEPTH))).not.to.throw();
    expect(() => parseSettings(nested(MAX_DEPTH + 1))).to.throw(
      SettingsYamlError,
      new RegExp(`deeper than ${MAX_DEPTH} levels`),
    );
    expect(() => parseSettings(nested(100_000))).to.throw(
      SettingsYamlError,
      /^line 1, column 35: mappings and lists nest deeper/,
    );
    expect(() => parseSettings(`a:\n  ${'- '.repeat(100_000)}x`)).to.throw(
      SettingsYamlError,
      /^line 2, column 65: mappings and lists nest deeper/,
    );
  });

  it('is a YAML mapping or nothing', () => {
    expect(settingsProblem('operator:\n  logLevel: debug\n')).to.equal(undefined);
    expect(settingsProblem('')).to.equal(undefined);
    expect(settingsProblem('- a\n- b')).to.equal('must be a YAML mapping (key: value pairs)');
    expect(settingsProblem('just text')).to.equal('must be a YAML mapping (key: value pairs)');
  });
});
