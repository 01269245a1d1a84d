/**
 * Provider functions on the wire: the one declaration of each function is what GetMetadata,
 * GetFunctions and GetProviderSchema all say (names, parameters with their JSON types and flags,
 * variadic parameter, return type, descriptions), the executables' prebuilt schema answers included;
 * CallFunction decodes each argument against its parameter's type and answers a result or a function
 * error at the argument, as Terraform 1.8 and OpenTofu 1.7 read it.
 */
import { expect } from 'chai';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import { encodeMsgpack, decodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { STRING, typeFromJSON, typeToJSONString } from '../../packages/framework/src/schema/cty-type.js';
import { plainToValue, valueToPlain } from '../../packages/framework/src/schema/model.js';
import { launchProvider, type LaunchedProvider } from '../../src/tfclient/launch.js';
import { inProcessProvider } from '../fuzz/answers.js';
import { SEC_BIN } from '../support/sec-provider.js';

type Msg = Record<string, any>;
const VDB_BIN = SEC_BIN.replace(/sec$/, 'vdb');

for (const def of [secDef, vdbDef])
  describe(`wire: ${def.name}'s functions`, () => {
    const fns = def.functions ?? [];
    let p: LaunchedProvider;
    before(async () => {
      p = await launchProvider(def.name === 'sec' ? SEC_BIN : VDB_BIN);
    });
    after(async () => {
      await p?.shutdown();
    });

    it('GetMetadata, GetFunctions and GetProviderSchema (prebuilt in the executable) say the same of each', async () => {
      const metadata = await p.call('GetMetadata', {});
      const listed = await p.call('GetFunctions', {});
      const schema = await p.call('GetProviderSchema', {});
      const names = fns.map((f) => f.name).sort();
      expect(metadata.functions.map((f: Msg) => f.name).sort()).to.deep.equal(names);
      expect(Object.keys(listed.functions).sort()).to.deep.equal(names);
      expect(schema.functions).to.deep.equal(listed.functions);
      for (const fn of fns) {
        const wire = listed.functions[fn.name] as Msg;
        expect(wire.summary).to.equal(fn.summary);
        expect(wire.description).to.equal(fn.description);
        expect(Buffer.from(wire.return.type).toString()).to.equal(typeToJSONString(fn.returns));
        expect(
          wire.parameters.map((q: Msg) => [
            q.name,
            Buffer.from(q.type).toString(),
            q.allow_null_value,
            q.allow_unknown_values,
          ]),
        ).to.deep.equal(
          fn.parameters.map((q) => [q.name, typeToJSONString(q.type), q.allowNull === true, q.allowUnknown === true]),
        );
        if (fn.variadic) expect(wire.variadic_parameter.name).to.equal(fn.variadic.name);
        else expect(wire.variadic_parameter ?? null).to.equal(null);
        expect(typeFromJSON(JSON.parse(Buffer.from(wire.return.type).toString()))).to.deep.equal(fn.returns);
      }
    });

    it('CallFunction gives each declared call its result, or its error at the argument', async () => {
      for (const fn of fns)
        for (const example of fn.examples) {
          const types = example.args.map((_, i) => (fn.parameters[i] ?? fn.variadic)!.type);
          const res = await p.call('CallFunction', {
            name: fn.name,
            arguments: example.args.map((a, i) => ({ msgpack: encodeMsgpack(types[i]!, plainToValue(types[i]!, a)) })),
          });
          if ('result' in example) {
            expect(res.error ?? null, fn.name).to.equal(null);
            expect(valueToPlain(decodeMsgpack(fn.returns, res.result.msgpack))).to.deep.equal(example.result);
          } else {
            expect(res.error.text).to.include(example.error);
            expect(Number(res.error.function_argument)).to.equal(example.argument);
          }
        }
    });

    it('an argument that does not decode, and a function it does not have, are function errors', async () => {
      const fn = fns[0]!;
      const garbled = await p.call('CallFunction', { name: fn.name, arguments: [{ msgpack: Buffer.from([0xc1]) }] });
      expect(garbled.error.text).to.match(new RegExp(`argument "${fn.parameters[0]!.name}".*could not be decoded`));
      expect(Number(garbled.error.function_argument)).to.equal(0);
      const unknown = await p.call('CallFunction', {
        name: 'no_such',
        arguments: [{ msgpack: encodeMsgpack(STRING, 'x') }],
      });
      expect(unknown.error).to.deep.include({ text: `the provider ${def.name} has no function "no_such"` });
    });
  });

describe('wire: the function messages of an in-process provider match the executable', () => {
  it('GetFunctions in process and in the executable agree (the prebuilt bytes are fresh)', async () => {
    const inProcess = await inProcessProvider(vdbDef).call('GetFunctions', {});
    const p = await launchProvider(VDB_BIN);
    try {
      expect((await p.call('GetFunctions', {})).functions).to.deep.equal(inProcess.functions);
    } finally {
      await p.shutdown();
    }
  });
});
