/**
 * Provider functions through the engine (packages/framework/src/engine/functions/functions.ts): every call and result
 * each real
 * function declares, and the rules every function gets from the engine, shown on a fake one with
 * every kind of parameter (fixed, variadic, dynamic, nullable, unknown-taking): its arity, null and
 * unknown arguments, an argument error at its index, and a function that throws or returns the
 * wrong type, which is said as a function error, never thrown.
 */
import { expect } from 'chai';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import {
  Functions,
  FunctionArgumentError,
  providerFunction,
  type FunctionDef,
  FunctionFailure,
} from '../../packages/framework/src/engine/functions/index.js';
import { DYNAMIC, NUMBER, STRING, listOf } from '../../packages/framework/src/schema/cty-type.js';
import { plainToValue, valueToPlain } from '../../packages/framework/src/schema/model.js';
import { DynamicValue, UNKNOWN, Unknown, type Value } from '../../packages/framework/src/schema/value.js';

const argsAsValues = (fn: FunctionDef, args: readonly unknown[]): Value[] =>
  args.map((a, i) => plainToValue((fn.parameters[i] ?? fn.variadic)!.type, a));

for (const def of [secDef, vdbDef])
  describe(`engine: ${def.name}'s functions give what they declare`, () => {
    const functions = new Functions(def.name, def.functions ?? []);

    it('declares functions, each with calls that succeed and calls that fail', () => {
      expect(def.functions ?? []).to.have.length.at.least(2);
      for (const fn of def.functions ?? []) {
        expect(
          fn.examples.some((e) => 'result' in e),
          `${fn.name} has a good call`,
        ).to.equal(true);
        expect(
          fn.examples.some((e) => 'error' in e),
          `${fn.name} has a bad call`,
        ).to.equal(true);
        expect(fn.name).to.match(/^[a-z][a-z0-9_]*$/);
        expect(fn.summary.endsWith('.'), `${fn.name}: a summary is a phrase`).to.equal(false);
      }
    });

    for (const fn of def.functions ?? [])
      it(`${fn.name}: every declared call`, () => {
        for (const example of fn.examples) {
          const out = functions.call(fn.name, argsAsValues(fn, example.args));
          if ('result' in example) {
            expect(out.error, JSON.stringify(example.args)).to.equal(undefined);
            expect(valueToPlain(out.result!), JSON.stringify(example.args)).to.deep.equal(example.result);
          } else {
            expect(out.error?.text, JSON.stringify(example.args)).to.include(example.error);
            expect(out.error?.argument).to.equal(example.argument);
            expect(out.error!.text.endsWith('.'), 'Terraform adds the full stop').to.equal(false);
          }
        }
      });
  });

describe('engine: vdb cluster_endpoint takes its protocol from its own table only', () => {
  it('a protocol named like a member every object has is an argument error, not a port', () => {
    const fn = vdbDef.functions!.find((f) => f.name === 'cluster_endpoint')!;
    const url = fn.examples.find((e) => 'result' in e)!.args[0];
    const functions = new Functions(vdbDef.name, vdbDef.functions ?? []);
    for (const protocol of ['constructor', '__proto__', 'toString', 'valueOf']) {
      const out = functions.call(fn.name, argsAsValues(fn, [url, protocol]));
      expect(out.result, protocol).to.equal(undefined);
      expect(out.error?.argument, protocol).to.equal(1);
      expect(out.error?.text).to.include(`"${protocol}" is not a protocol`);
    }
  });
});

describe('engine: the rules every provider function gets', () => {
  const seen: unknown[][] = [];
  const echo = providerFunction({
    name: 'echo',
    summary: 'Echo',
    description: 'Gives back what it was given.',
    parameters: [
      { name: 'text', type: STRING, description: 'a string' },
      { name: 'maybe', type: NUMBER, description: 'a number or null', allowNull: true },
      { name: 'anything', type: DYNAMIC, description: 'any value', allowUnknown: true },
    ],
    variadic: { name: 'rest', type: STRING, description: 'more strings' },
    returns: listOf(STRING),
    examples: [],
    call(args) {
      seen.push([...args]);
      const [text, , anything, rest] = args as [string, number | null, unknown, string[]];
      if (text === 'bad') throw new FunctionArgumentError(0, 'text may not be "bad".');
      if (text === 'fail') throw new FunctionFailure('nothing works today');
      if (text === 'throw') throw new TypeError('cannot read properties of undefined');
      if (text === 'wrong') return 42;
      if (anything instanceof Unknown) return UNKNOWN;
      return [text, ...rest];
    },
  });
  const functions = new Functions('fake', [echo]);
  const dynamic = (v: Value) => new DynamicValue(STRING, v);

  beforeEach(() => {
    seen.length = 0;
  });

  it('passes plain data, the variadic arguments as a list after the others', () => {
    const out = functions.call('echo', ['a', 1, dynamic('x'), 'b', 'c']);
    expect(valueToPlain(out.result!)).to.deep.equal(['a', 'b', 'c']);
    expect(seen).to.deep.equal([['a', 1, 'x', ['b', 'c']]]);
    expect(valueToPlain(functions.call('echo', ['a', null, dynamic('x')]).result!)).to.deep.equal(['a']);
  });

  it('refuses too few or too many arguments, and a function it does not have, naming them', () => {
    expect(functions.call('echo', ['a']).error).to.deep.equal({ text: 'echo takes at least 3 arguments, not 1' });
    const none = functions.call('nope', []);
    expect(none.error).to.deep.equal({ text: 'the provider fake has no function "nope"' });
    expect(functions.call('x'.repeat(10_000), []).error!.text.length).to.be.below(200);
    expect(seen).to.deep.equal([]);
  });

  it('a null where the parameter takes none is refused at its argument, without a call', () => {
    expect(functions.call('echo', [null, 1, dynamic('x')]).error).to.deep.equal({
      text: 'argument must not be null',
      argument: 0,
    });
    expect(functions.call('echo', ['a', 1, dynamic('x'), null]).error?.argument).to.equal(3);
    expect(seen).to.deep.equal([]);
  });

  it('an unknown where the parameter takes none makes the result unknown without a call; else reaches it', () => {
    expect(functions.call('echo', [UNKNOWN, 1, dynamic('x')]).result).to.be.instanceOf(Unknown);
    expect(seen).to.deep.equal([]);
    expect(functions.call('echo', ['a', 1, UNKNOWN]).result).to.be.instanceOf(Unknown);
    expect(seen).to.have.length(1);
  });

  it('an argument error is at its index, without the full stop Terraform adds', () => {
    expect(functions.call('echo', ['bad', 1, dynamic('x')]).error).to.deep.equal({
      text: 'text may not be "bad"',
      argument: 0,
    });
    expect(functions.call('echo', ['fail', 1, dynamic('x')]).error).to.deep.equal({ text: 'nothing works today' });
  });

  it('a function that throws or returns the wrong type is said as its failure, never thrown', () => {
    expect(functions.call('echo', ['throw', 1, dynamic('x')]).error!.text).to.equal(
      'the function echo failed: cannot read properties of undefined',
    );
    expect(functions.call('echo', ['wrong', 1, dynamic('x')]).error!.text).to.match(
      /^the function echo returned a value that is not its list/,
    );
  });
});
