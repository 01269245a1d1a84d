import { expect } from 'chai';
import { Decimal } from '../../packages/framework/src/schema/value.js';
import {
  compareNumbers,
  MAX_DECIMAL_EXPONENT,
  numberEquals,
  numberFromBigInt,
  numberSetHashText,
  numberText,
  numberToJS,
  parseNumber,
} from '../../packages/framework/src/schema/number.js';

describe('number.ts', () => {
  describe('parseNumber', () => {
    const exactFloats: Array<[string, number]> = [
      ['0', 0],
      ['80', 80],
      ['0.25', 0.25],
      ['1e3', 1000],
      ['-1.5e3', -1500],
      ['1.5', 1.5],
      ['-0.25', -0.25],
      ['.5', 0.5],
      ['5.', 5],
      ['+7', 7],
      ['0.5e1', 5],
      ['9007199254740992', 2 ** 53],
      ['18446744073709551616', 2 ** 64],
      ['0.000000000931322574615478515625', 2 ** -30],
      ['1.0000000000000002220446049250313080847263336181640625', 1 + 2 ** -52],
      [(2n ** 1023n).toString(), 2 ** 1023],
      ['12345678.125', 12345678.125],
    ];
    for (const [text, expected] of exactFloats) {
      it(`${text.length > 40 ? `${text.slice(0, 40)}…` : text} is exactly a float64 → number`, () => {
        const n = parseNumber(text);
        expect(n).to.be.a('number');
        expect(n).to.equal(expected);
      });
    }

    it('"-0" is plain 0 (no negative zero)', () => {
      expect(Object.is(parseNumber('-0'), 0)).to.equal(true);
      expect(Object.is(parseNumber('-0.000e5'), 0)).to.equal(true);
    });

    const decimals: Array<[string, string]> = [
      ['0.1', '0.1'],
      ['3.14159', '3.14159'],
      ['-0.1', '-0.1'],
      ['00012.3400', '12.34'],
      ['1e-3', '0.001'],
      ['1e-7', '0.0000001'],
      ['9007199254740993', '9007199254740993'],
      ['18446744073709551617', '18446744073709551617'],
      ['1e100', `1${'0'.repeat(100)}`],
      ['123456789012345678901234567890.5', '123456789012345678901234567890.5'],
      [
        '1.00000000000000022204460492503130808472633361816406251',
        '1.00000000000000022204460492503130808472633361816406251',
      ],
      [(2n ** 1024n).toString(), (2n ** 1024n).toString()],
      ['-12.5e-1000', `-0.${'0'.repeat(998)}125`],
    ];
    for (const [text, canonical] of decimals) {
      it(`${text.length > 40 ? `${text.slice(0, 40)}…` : text} is not a float64 → Decimal ${canonical.length > 30 ? '(long)' : canonical}`, () => {
        const n = parseNumber(text);
        expect(n).to.be.instanceOf(Decimal);
        expect((n as Decimal).text).to.equal(canonical);
      });
    }

    it('the smallest subnormal written exactly is a float; one digit more is not', () => {
      const exact =
        '0.' +
        '0'.repeat(323) +
        '4940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625';
      expect(parseNumber(exact)).to.equal(5e-324);
      expect(parseNumber(`${exact}1`)).to.be.instanceOf(Decimal);
    });

    const garbage = [
      '',
      ' 1',
      '1 ',
      'abc',
      '-',
      '.',
      'e5',
      '1e',
      '1e+',
      '1.2.3',
      '--1',
      'NaN',
      'Infinity',
      '-Infinity',
      'inf',
      '0x10',
      '1_000',
      '١٢',
    ];
    for (const text of garbage) {
      it(`rejects ${JSON.stringify(text)} with RangeError`, () => {
        expect(() => parseNumber(text)).to.throw(RangeError);
      });
    }

    it('bounds the exponent so hostile input cannot blow up', () => {
      expect(() => parseNumber(`1e${MAX_DECIMAL_EXPONENT + 1}`)).to.throw(RangeError, /exponent/);
      expect(() => parseNumber('1e-99999999999999999999')).to.throw(RangeError, /exponent/);
      expect(() => parseNumber('1e999999999')).to.throw(RangeError);
      expect((parseNumber(`1e${MAX_DECIMAL_EXPONENT}`) as Decimal).text).to.have.length(MAX_DECIMAL_EXPONENT + 1);
      expect((parseNumber('7'.repeat(100000)) as Decimal).text).to.have.length(100000);
    });
  });

  describe('numberText', () => {
    const cases: Array<[number | Decimal, string]> = [
      [1e21, '1000000000000000000000'],
      [-0, '0'],
      [0, '0'],
      [42, '42'],
      [-1, '-1'],
      [2 ** 64, '18446744073709551616'],
      [-(2 ** 63), '-9223372036854775808'],
      [1.5e-7, '0.00000015'],
      [0.1, '0.1'],
      [123.456, '123.456'],
      [5e-324, `0.${'0'.repeat(323)}5`],
      [new Decimal('0.1'), '0.1'],
      [new Decimal('-18446744073709551617'), '-18446744073709551617'],
    ];
    for (const [n, text] of cases) {
      it(`${String(n).slice(0, 30)} → ${text.slice(0, 30)}`, () => {
        expect(numberText(n)).to.equal(text);
        expect(numberText(n)).not.to.match(/e/i);
      });
    }
  });

  describe('numberEquals / compareNumbers / numberToJS', () => {
    it('compares by canonical text, as Terraform does', () => {
      expect(numberEquals(0.1, new Decimal('0.1'))).to.equal(true);
      expect(numberEquals(0, -0)).to.equal(true);
      expect(numberEquals(2 ** 64, new Decimal('18446744073709551616'))).to.equal(true);
      expect(numberEquals(2 ** 64, new Decimal('18446744073709551617'))).to.equal(false);
      expect(numberEquals(1, 2)).to.equal(false);
      expect(numberEquals(new Decimal('0.1'), new Decimal('0.2'))).to.equal(false);
    });

    it('orders mixed numbers and decimals by value', () => {
      const ascending = [
        -Infinity,
        new Decimal('-18446744073709551617'),
        -(2 ** 64),
        -1.5,
        new Decimal('-0.1'),
        0,
        new Decimal('0.0000000000000000000001'),
        0.1,
        new Decimal('0.10000000000000000001'),
        0.25,
        1,
        2 ** 64,
        new Decimal('18446744073709551617'),
        new Decimal(`1${'0'.repeat(100)}`),
        Infinity,
      ];
      for (let i = 0; i < ascending.length; i++) {
        for (let j = 0; j < ascending.length; j++) {
          const expected = i < j ? -1 : i > j ? 1 : 0;
          expect(
            compareNumbers(ascending[i]!, ascending[j]!),
            `${String(ascending[i])} vs ${String(ascending[j])}`,
          ).to.equal(expected);
        }
      }
      expect(compareNumbers(0.1, new Decimal('0.1'))).to.equal(0);
    });

    it('numberToJS gives the nearest double', () => {
      expect(numberToJS(new Decimal('0.1'))).to.equal(0.1);
      expect(numberToJS(new Decimal('9007199254740993'))).to.equal(9007199254740992);
      expect(numberToJS(7)).to.equal(7);
    });

    it('numberFromBigInt never loses precision', () => {
      expect(numberFromBigInt(42n)).to.equal(42);
      expect(numberFromBigInt(2n ** 60n)).to.equal(2 ** 60);
      expect(numberFromBigInt(2n ** 53n + 1n)).to.deep.equal(new Decimal('9007199254740993'));
      expect(numberFromBigInt(-(2n ** 64n) + 1n)).to.deep.equal(new Decimal('-18446744073709551615'));
    });
  });

  describe('numberSetHashText (Go big.Float.String, used to order sets of non-primitives)', () => {
    // Expected texts follow Go's %g with 10 significant digits (math/big ftoa: %e when exp < -4 or
    // exp >= precision, exponent with at least two digits, half-even on exact ties).
    const cases: Array<[number | string, string]> = [
      [0, '0'],
      [100, '100'],
      [-2, '-2'],
      [1.5, '1.5'],
      [1234567890, '1234567890'],
      [1e10, '1e+10'],
      [12345678901, '1.23456789e+10'],
      [9999999999.5, '1e+10'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [0.1, '0.1'],
      [12345678.125, '12345678.12'], // exact binary tie → half-even (down)
      [12345678.375, '12345678.38'], // exact binary tie → half-even (up)
      [2 ** 64, '1.844674407e+19'],
      [5e-324, '4.940656458e-324'],
      // Decimals: cty holds them as 512-bit binary floats, so a decimal tie rounds the way the binary
      // approximation lies (directions checked independently with exact rational arithmetic).
      ['0.30000000005', '0.3000000001'],
      ['3.1415926535', '3.141592653'],
      ['-0.30000000005', '-0.3000000001'],
      ['18446744073709551617', '1.844674407e+19'],
      ['1e100', '1e+100'],
    ];
    for (const [n, text] of cases) {
      it(`${String(n)} → ${text}`, () => {
        expect(numberSetHashText(typeof n === 'string' ? parseNumber(n) : n)).to.equal(text);
      });
    }
  });
});
