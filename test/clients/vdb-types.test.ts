/**
 * The vdb client's types and enum lists are written from the .proto files as the project builds
 * (scripts/vdb-types.mjs, into src/wire/vdb-messages.ts), not by hand. This holds the generator to
 * what it stands for:
 * - every enum of the .proto files, with its values in proto order, is in VDB_ENUMS, and nothing else;
 * - every field is named as the client's codec names it (src/wire/vdb-json-name.ts);
 * - a field the types say a decoded answer always holds is the one the codec always decodes: each
 *   message decoded from no bytes at all holds exactly those, and one with every field set holds
 *   every field.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import protobuf from 'protobufjs';
import { VDB_ENUMS } from '../../src/clients/vdb/messages.js';
import { decodePlain } from '../../src/clients/vdb/codec.js';
import { findProtoSourceDir } from '../../src/proto-location.js';
import { jsonName } from '../../src/wire/vdb-json-name.js';

interface Generator {
  loadRoot(protoDir: string): protobuf.Root;
  collect(root: protobuf.Root): { messages: protobuf.Type[]; enums: protobuf.Enum[] };
  alwaysAnswered(field: protobuf.Field): boolean;
  jsonName(field: string): string;
}

const shortName = (type: protobuf.ReflectionObject) => type.fullName.replace(/^\.vdb\.cloud\./, '');

/** The members of a oneof (not proto3's `optional`) but its first: one message cannot set them together. */
const otherMembers = (type: protobuf.Type) =>
  type.oneofsArray.filter((o) => o.fieldsArray.length > 1).flatMap((o) => o.fieldsArray.slice(1));

/** A value for every field of `type` (one element for a list; one member of a oneof), so that each is on the wire. */
function everyFieldSet(type: protobuf.Type, depth = 0): Record<string, unknown> {
  const message: Record<string, unknown> = {};
  const left = otherMembers(type);
  for (const field of type.fieldsArray) {
    if (left.includes(field)) continue;
    const resolved = field.resolvedType;
    let value: unknown;
    if (resolved instanceof protobuf.Enum) value = Math.max(...Object.values(resolved.values));
    else if (resolved instanceof protobuf.Type) {
      if (depth > 4) continue;
      value = resolved.fullName.startsWith('.google.') ? {} : everyFieldSet(resolved, depth + 1);
    } else value = field.type === 'string' ? 'x' : field.type === 'bool' ? true : field.type === 'bytes' ? [1] : 1;
    message[field.name] = field.repeated ? [value] : value;
  }
  return message;
}

describe('vdb client types: written from the .proto files as the codec reads them', () => {
  let generator: Generator;
  let messages: protobuf.Type[];
  let enums: protobuf.Enum[];

  before(async () => {
    const protoDir = findProtoSourceDir('vdb', [process.cwd()]);
    if (!protoDir) throw new Error('no proto/vdb above the working directory');
    generator = (await import(pathToFileURL(join(process.cwd(), 'scripts', 'vdb-types.mjs')).href)) as Generator;
    ({ messages, enums } = generator.collect(generator.loadRoot(protoDir)));
    expect(messages.length, 'messages').to.be.above(50);
  });

  it('lists every enum of the .proto files, its values in proto order, and nothing else', () => {
    const fromProto = Object.fromEntries(
      enums.map((e) => [
        shortName(e),
        Object.entries(e.values)
          .sort(([, a], [, b]) => a - b)
          .map(([name]) => name),
      ]),
    );
    expect(JSON.parse(JSON.stringify(VDB_ENUMS))).to.deep.equal(fromProto);
  });

  it("names every field as the client's codec does", () => {
    const differ = messages.flatMap((message) =>
      message.fieldsArray
        .filter((field) => generator.jsonName(field.name) !== jsonName(field.name))
        .map((field) => `${field.fullName}: ${generator.jsonName(field.name)}, not ${jsonName(field.name)}`),
    );
    expect(differ).to.deep.equal([]);
  });

  it('says a decoded answer always holds exactly the fields the codec always decodes', () => {
    const wrong = messages.flatMap((message) => {
      const always = message.fieldsArray
        .filter((field) => generator.alwaysAnswered(field))
        .map((f) => jsonName(f.name));
      const empty = Object.keys(decodePlain(message, new Uint8Array()));
      const full = decodePlain(message, message.encode(message.fromObject(everyFieldSet(message))).finish());
      const unread = message.fieldsArray
        .filter((field) => !otherMembers(message).includes(field))
        .map((field) => jsonName(field.name))
        .filter((name) => !(name in full));
      return [
        ...(empty.sort().join() === always.sort().join()
          ? []
          : [
              `${shortName(message)}: the codec always decodes ${empty.join(', ')}; the types say ${always.join(', ')}`,
            ]),
        ...(unread.length === 0 ? [] : [`${shortName(message)}: set, yet not decoded: ${unread.join(', ')}`]),
      ];
    });
    expect(wrong).to.deep.equal([]);
  });
});
