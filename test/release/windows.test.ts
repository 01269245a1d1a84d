/**
 * The Windows executable starts from node.exe without its Authenticode signature (injecting the
 * application would break it): the PE header's security directory emptied and the certificate table,
 * the end of the file, cut off. Shown on a PE32+ header made here; the release test checks the real
 * executable with binutils' objdump.
 */
import { expect } from 'chai';
import { withoutSignature } from '../../packages/framework/src/release/windows.js';

/** A PE32+ file of `bodyBytes` bytes after its headers, with a certificate table of `certificate` at `at`. */
function pe(bodyBytes: number, certificate: Buffer, at?: number): Buffer {
  const headerEnd = 0x80 + 24 + 240;
  const file = Buffer.alloc(headerEnd + bodyBytes + certificate.length, 0x11);
  file.write('MZ', 0, 'latin1');
  file.writeUInt32LE(0x80, 0x3c);
  file.write('PE\0\0', 0x80, 'latin1');
  const optional = 0x80 + 24;
  file.writeUInt16LE(0x20b, optional);
  file.writeUInt32LE(0xabcdef, optional + 64);
  file.writeUInt32LE(16, optional + 108);
  const offset = at ?? headerEnd + bodyBytes;
  file.writeUInt32LE(offset, optional + 144);
  file.writeUInt32LE(certificate.length, optional + 148);
  certificate.copy(file, headerEnd + bodyBytes);
  return file;
}

describe('release windows: node.exe without its signature', () => {
  it('cuts the certificate table off the end and empties the security directory and checksum', () => {
    const certificate = Buffer.alloc(64, 0x5a);
    const signed = pe(1000, certificate);
    const stripped = withoutSignature(signed);
    expect(stripped.length).to.equal(signed.length - 64);
    const optional = 0x80 + 24;
    expect(stripped.readUInt32LE(optional + 144)).to.equal(0);
    expect(stripped.readUInt32LE(optional + 148)).to.equal(0);
    expect(stripped.readUInt32LE(optional + 64)).to.equal(0);
    expect(stripped.subarray(0, optional + 64).equals(signed.subarray(0, optional + 64))).to.equal(true);
    expect(stripped.subarray(optional + 152).equals(signed.subarray(optional + 152, signed.length - 64))).to.equal(
      true,
    );
    expect(withoutSignature(stripped), 'nothing left to remove').to.equal(stripped);
  });

  it('refuses what is not the executable it expects', () => {
    expect(() => withoutSignature(Buffer.from('#!/bin/sh\n'))).to.throw(/not the PE32\+ executable expected: no MZ/);
    const inside = pe(1000, Buffer.alloc(64), 0x200);
    expect(() => withoutSignature(inside)).to.throw(/certificate table is not at the end of the file/);
    const pe32 = pe(10, Buffer.alloc(8));
    pe32.writeUInt16LE(0x10b, 0x80 + 24);
    expect(() => withoutSignature(pe32)).to.throw(/not PE32\+/);
  });
});
