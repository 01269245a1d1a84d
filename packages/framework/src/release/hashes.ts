/**
 * Terraform's two provider package hashes, as recorded in `.terraform.lock.hcl` and served by a
 * network mirror:
 * - `zh:` the SHA-256 of the .zip archive itself, in hex (what SHA256SUMS lists);
 * - `h1:` golang.org/x/mod's dirhash Hash1 of the package's files: one line
 *   `<sha256 hex>  <name>\n` per file, names in byte order, and the SHA-256 of those lines in base64.
 *   It is the same whether computed from the archive or from the unpacked directory, as long as the
 *   archive holds no directory entries (./zip.ts).
 */
import { createHash } from 'node:crypto';

export interface NamedContent {
  readonly name: string;
  readonly data: Buffer;
}

export const sha256Hex = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

export function zipHash(archive: Buffer): string {
  return `zh:${sha256Hex(archive)}`;
}

export function packageHashV1(files: readonly NamedContent[]): string {
  const sorted = [...files].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const summary = createHash('sha256');
  for (const file of sorted) {
    if (file.name.includes('\n')) throw new Error(`dirhash: a file name with a newline: ${JSON.stringify(file.name)}`);
    summary.update(`${sha256Hex(file.data)}  ${file.name}\n`);
  }
  return `h1:${summary.digest('base64')}`;
}
