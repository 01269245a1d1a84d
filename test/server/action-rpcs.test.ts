/**
 * The action RPCs at the wire: our tfplugin6.proto carries the action messages with the field numbers
 * of Terraform 1.14's (the bytes Terraform sends decode as it meant them); GetMetadata and
 * GetProviderSchema declare every action, its arguments described, none computed; bad requests get
 * a diagnostic, and InvokeAction's stream always ends with a Completed event carrying it, never a
 * gRPC error (in process, through the protobuf codec as the server does).
 */
import { expect } from 'chai';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { providerStreamService } from '../../packages/framework/src/server/provider-service.js';
import { PROVIDER_SERVICE_RPCS, STREAMING_RPC_NAMES } from '../../packages/framework/src/server/rpcs.js';
import { decodeMessage, encodeMessage, rpcTypes, SERVICE_NAMES } from '../../packages/framework/src/server/proto.js';
import { schemaFromProto } from '../../packages/framework/src/schema/schema-from-proto.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { inProcessProvider, silentLogger } from '../fuzz/answers.js';
import { protoSourcesRoot } from '../support/proto-sources.js';

type Msg = Record<string, any>;

/**
 * The action messages of docs/plugin-protocol/tfplugin6.proto at hashicorp/terraform v1.14.9
 * (protocol 6.10), transcribed: `<message>.<field>` → `<number> <type>`.
 */
const TERRAFORM_1_14 = {
  'ActionSchema.schema': '1 Schema',
  'GetMetadata.Response.actions': '9 repeated ActionMetadata',
  'GetMetadata.ActionMetadata.type_name': '1 string',
  'GetProviderSchema.Response.action_schemas': '11 map<string,ActionSchema>',
  'PlanAction.Request.action_type': '1 string',
  'PlanAction.Request.config': '2 DynamicValue',
  'PlanAction.Request.client_capabilities': '3 ClientCapabilities',
  'PlanAction.Response.diagnostics': '1 repeated Diagnostic',
  'PlanAction.Response.deferred': '2 Deferred',
  'InvokeAction.Request.action_type': '1 string',
  'InvokeAction.Request.config': '2 DynamicValue',
  'InvokeAction.Request.client_capabilities': '3 ClientCapabilities',
  'InvokeAction.Event.Progress.message': '1 string',
  'InvokeAction.Event.Completed.diagnostics': '1 repeated Diagnostic',
  'InvokeAction.Event.progress': '1 oneof type Progress',
  'InvokeAction.Event.completed': '2 oneof type Completed',
  'ValidateActionConfig.Request.type_name': '1 string',
  'ValidateActionConfig.Request.config': '2 DynamicValue',
  'ValidateActionConfig.Response.diagnostics': '1 repeated Diagnostic',
  'ClientCapabilities.deferral_allowed': '1 bool',
  'ClientCapabilities.write_only_attributes_allowed': '2 bool',
};

function fieldOf(path: string): string {
  const parts = path.split('.');
  const field = parts.pop()!;
  const type = protoSourcesRoot().lookupType(`tfplugin6.${parts.join('.')}`);
  const f = type.fields[field];
  if (!f) return 'absent';
  const kind = f.map ? `map<${(f as unknown as { keyType: string }).keyType},${f.type}>` : f.type;
  return `${f.id} ${f.repeated ? 'repeated ' : ''}${f.partOf ? `oneof ${f.partOf.name} ` : ''}${kind}`;
}

describe('wire: actions', () => {
  it("our tfplugin6.proto has the action messages of Terraform 1.14's, field for field", () => {
    const ours = Object.fromEntries(Object.keys(TERRAFORM_1_14).map((path) => [path, fieldOf(path)]));
    expect(ours).to.deep.equal(TERRAFORM_1_14);
    const service = protoSourcesRoot().lookupService('tfplugin6.Provider');
    expect(service.methods.InvokeAction!.responseStream).to.equal(true);
    expect(service.methods.InvokeAction!.requestStream ?? false).to.equal(false);
    expect(service.methods.PlanAction!.responseStream ?? false).to.equal(false);
  });

  it('InvokeAction is served on the streaming path, ValidateActionConfig and PlanAction as unary calls', () => {
    expect(STREAMING_RPC_NAMES.has('InvokeAction')).to.equal(true);
    expect(PROVIDER_SERVICE_RPCS.streams).to.include('InvokeAction');
    expect(PROVIDER_SERVICE_RPCS.unary).to.include.members(['ValidateActionConfig', 'PlanAction']);
  });

  for (const def of [secDef, vdbDef]) {
    it(`${def.name}: GetMetadata and GetProviderSchema declare every action, described, with arguments only`, async () => {
      const p = inProcessProvider(def);
      const metadata = await p.call('GetMetadata', {});
      const schema = await p.call('GetProviderSchema', {});
      const names = (def.actions ?? []).map((a) => a.typeName).sort();
      expect(names).to.not.have.length(0);
      expect(metadata.actions.map((a: Msg) => a.type_name).sort()).to.deep.equal(names);
      expect(Object.keys(schema.action_schemas).sort()).to.deep.equal(names);
      for (const [type, s] of Object.entries(schema.action_schemas as Record<string, Msg>)) {
        const block = schemaFromProto(s.schema, `action ${type}`).block;
        expect(block.description, type).to.not.equal('');
        for (const [name, a] of Object.entries(block.attributes)) {
          expect(a.description, `${type}.${name}`).to.not.equal('');
          expect(a.computed, `${type}.${name} computed`).to.equal(false);
          expect(a.required !== a.optional, `${type}.${name} required or optional`).to.equal(true);
        }
      }
    });
  }

  it('bad requests get a diagnostic: an unknown action, a configuration that does not decode', async () => {
    const p = inProcessProvider(vdbDef);
    const unknown = await p.call('ValidateActionConfig', {
      type_name: 'vdb_nope',
      config: { msgpack: Buffer.from([0x80]) },
    });
    expect(unknown.diagnostics.map((d: Msg) => [d.severity, d.summary, d.detail])).to.deep.equal([
      [1, 'Invalid request from Terraform', 'The provider vdb has no action "vdb_nope".'],
    ]);
    const garbled = await p.call('PlanAction', {
      action_type: 'vdb_cluster_backup',
      config: { msgpack: Buffer.from([0xc1]) },
    });
    expect(garbled.diagnostics[0].summary).to.equal('Invalid request from Terraform');
    expect(garbled.diagnostics[0].detail).to.match(/^The action configuration sent by Terraform could not be decoded/);
  });

  it('InvokeAction: every failure is one Completed event with the diagnostic, never a gRPC error', async () => {
    const engine = new ProviderEngine(vdbDef, silentLogger, { HOME: '/nonexistent' });
    const invoke = providerStreamService(engine, silentLogger).InvokeAction!;
    const { request, response } = rpcTypes(SERVICE_NAMES.provider, 'InvokeAction');
    const events = async (req: Msg) => {
      const out: Msg[] = [];
      for await (const e of invoke(decodeMessage(request, encodeMessage(request, req)), {
        signal: new AbortController().signal,
      }))
        out.push(decodeMessage(response, encodeMessage(response, e)));
      return out;
    };
    const unknown = await events({ action_type: 'vdb_nope', config: { msgpack: Buffer.from([0x80]) } });
    expect(unknown).to.have.length(1);
    expect(unknown[0]!.completed.diagnostics[0].summary).to.equal('Invalid request from Terraform');
    // A valid request to an unconfigured provider: the run fails as a diagnostic, before anything is sent.
    const block = vdbDef.actions![0]!.schema.block;
    const config = configValue(block, { cluster_id: 'c0ffee00-1234-4abc-8def-0123456789ab' });
    const unconfigured = await events({
      action_type: 'vdb_cluster_backup',
      config: { msgpack: encodeMsgpack(impliedType(block), config) },
    });
    expect(unconfigured.map((e) => e.type)).to.deep.equal(['completed']);
    expect(unconfigured[0]!.completed.diagnostics.map((d: Msg) => d.summary)).to.deep.equal([
      'Provider not configured',
    ]);
  });
});
