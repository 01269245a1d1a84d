/**
 * The executables answer GetProviderSchema and GetResourceIdentitySchemas with bytes encoded when they
 * were built (src/providers/prebuilt-schemas.ts, scripts/bundle.mjs). Those bytes must be exactly what
 * the server's encoder makes now from the definitions: a bundle holding stale or differently encoded
 * answers would give Terraform a schema that is not the provider's.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';
import { encodeSchemaResponses } from '../../packages/framework/src/server/provider-service.js';
import { decodeMessage, messageType } from '../../packages/framework/src/server/proto.js';
import { launchProvider } from '../../src/tfclient/launch.js';
import { quietLogger } from '../support/quiet-logger.js';
import sec from '../../src/resources/sec/index.js';
import vdb from '../../src/resources/vdb/index.js';

const ROOT = resolve(process.cwd());

/** The answers the bundle holds, as scripts/bundle.mjs wrote them into it. */
function answersInBundle(name: string): { schema: Buffer; identitySchemas: Buffer } {
  const source = readFileSync(join(ROOT, 'dist', 'bundle', `terraform-provider-${name}.cjs`), 'latin1');
  const found =
    /PREBUILT_SCHEMA_RESPONSES\s*=\s*(\{"schema":"[A-Za-z0-9+/=]*","identitySchemas":"[A-Za-z0-9+/=]*"\})/.exec(source);
  expect(found, `${name}: the bundle holds no schema answers built ahead`).to.not.equal(null);
  const answers = JSON.parse(found![1]!) as { schema: string; identitySchemas: string };
  return {
    schema: Buffer.from(answers.schema, 'base64'),
    identitySchemas: Buffer.from(answers.identitySchemas, 'base64'),
  };
}

describe('schema answers built into the executables', function () {
  this.timeout(60_000);
  const providers: [string, ProviderDef<any, any>][] = [
    ['sec', sec],
    ['vdb', vdb],
  ];
  for (const [name, def] of providers) {
    it(`${name}: the executable serves the answers its bundle holds, byte for byte what the encoder makes now`, async () => {
      const fresh = encodeSchemaResponses(new ProviderEngine(def, quietLogger, {}));
      // Real answers, not empty messages: every resource type is in the schema.
      const decoded = decodeMessage(messageType('tfplugin6.GetProviderSchema.Response'), fresh.schema);
      expect(Object.keys(decoded.resource_schemas).sort()).to.deep.equal(def.resources.map((r) => r.typeName).sort());

      const built = answersInBundle(name);
      // The capabilities are built in too: Terraform 1.14 asks GenerateResourceConfig for the configuration it writes.
      const builtSchema = decodeMessage(messageType('tfplugin6.GetProviderSchema.Response'), built.schema);
      expect(builtSchema.server_capabilities, 'capabilities in the bundle').to.deep.include({
        generate_resource_config: true,
      });
      // Stale after any change of a schema or a new type: `npm run build` encodes them again.
      const stale = 'is stale: `npm run build` rebuilds it';
      expect(built.schema.equals(fresh.schema), `GetProviderSchema in the bundle ${stale}`).to.equal(true);
      expect(
        built.identitySchemas.equals(fresh.identitySchemas),
        `GetResourceIdentitySchemas in the bundle ${stale}`,
      ).to.equal(true);

      const p = await launchProvider(join(ROOT, 'bin', `terraform-provider-${name}`));
      try {
        const served = await p.callRaw('GetProviderSchema', Buffer.alloc(0));
        expect(served.equals(fresh.schema), 'GetProviderSchema served').to.equal(true);
        const identities = await p.callRaw('GetResourceIdentitySchemas', Buffer.alloc(0));
        expect(identities.equals(fresh.identitySchemas), 'GetResourceIdentitySchemas served').to.equal(true);
      } finally {
        await p.shutdown();
      }
    });
  }
});
