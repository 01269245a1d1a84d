// Unit tests of the pure pieces: logging format, handshake helpers, certificates, protobuf plumbing.
import { X509Certificate } from 'node:crypto';
import { expect } from 'chai';
import { handshakeLine, negotiateProtocol, reattachConfig } from '../../packages/framework/src/server/handshake.js';
import {
  Logger,
  hclogTimestamp,
  logSettingFromEnv,
  parseLogSetting,
  redact,
} from '../../packages/framework/src/server/log.js';
import {
  PROVIDER_RPC_NAMES,
  STREAMING_RPC_NAMES,
  decodeMessage,
  encodeMessage,
  messageType,
  serviceMethods,
} from '../../packages/framework/src/server/proto.js';
import { serviceDefinition } from '../../src/tfclient/service-definitions.js';
import { allMessageTypes, allServices, protoSourcesRoot } from '../support/proto-sources.js';
import {
  generateCertificate,
  handshakeCertField,
  parseHandshakeCertField,
} from '../../packages/framework/src/server/tls.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe('server/log', () => {
  it('formats timestamps with exactly six fractional digits and Z', () => {
    expect(hclogTimestamp(Date.UTC(2023, 10, 14, 22, 13, 20, 123) + 0.456)).to.equal('2023-11-14T22:13:20.123456Z');
    expect(hclogTimestamp(Date.UTC(2023, 0, 1))).to.equal('2023-01-01T00:00:00.000000Z');
    expect(hclogTimestamp()).to.match(TIMESTAMP);
  });

  it('reads the level like Terraform: provider-specific, then TF_LOG_PROVIDER, then TF_LOG', () => {
    expect(logSettingFromEnv('sec', {})).to.equal('off');
    expect(logSettingFromEnv('sec', { TF_LOG: 'info' })).to.equal('info');
    expect(logSettingFromEnv('sec', { TF_LOG: 'info', TF_LOG_PROVIDER: 'DEBUG' })).to.equal('debug');
    expect(
      logSettingFromEnv('sec', { TF_LOG: 'info', TF_LOG_PROVIDER: 'debug', TF_LOG_PROVIDER_SEC: 'error' }),
    ).to.equal('error');
    expect(logSettingFromEnv('sec', { TF_LOG_PROVIDER_SEC: '', TF_LOG: 'warn' })).to.equal('warn');
    expect(parseLogSetting('JSON')).to.equal('trace');
    expect(parseLogSetting('verbose')).to.equal('trace');
    expect(parseLogSetting('off')).to.equal('off');
    // A name every object has is no level either: all of them log, as any unknown value does.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(parseLogSetting(name), name).to.equal('trace');
      expect(new Logger({ level: logSettingFromEnv('sec', { TF_LOG: name }) }).enabled('trace'), name).to.equal(true);
    }
  });

  it('writes hclog JSON lines filtered by level, with child fields and module', () => {
    const lines: string[] = [];
    const log = new Logger({ level: 'info', write: (l) => lines.push(l) });
    log.debug('hidden');
    log.info('shown', { n: 1, big: 2n ** 70n, '@level': 'error' });
    log
      .child({ '@module': 'provider.sec_thing', tf_rpc: 'ReadResource' })
      .warn('from child', { secret: redact('hunter2') });
    expect(lines).to.have.length(2);
    const [a, b] = lines.map((l) => JSON.parse(l));
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).to.equal(true);
    expect(a).to.include({
      '@level': 'info',
      '@message': 'shown',
      '@module': 'provider',
      n: 1,
      big: '1180591620717411303424',
    });
    expect(a['@timestamp']).to.match(TIMESTAMP);
    expect(b).to.include({
      '@level': 'warn',
      '@module': 'provider.sec_thing',
      tf_rpc: 'ReadResource',
      secret: '(sensitive value)',
    });
  });

  it('survives unserialisable fields', () => {
    const lines: string[] = [];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    new Logger({ level: 'trace', write: (l) => lines.push(l) }).error('boom', { cyclic });
    expect(JSON.parse(lines[0]!)).to.include({ '@message': 'boom', '@level': 'error' });
  });
});

describe('server/handshake helpers', () => {
  it('negotiates protocol 6 like go-plugin', () => {
    expect(negotiateProtocol('x', { PLUGIN_PROTOCOL_VERSIONS: '5,6' })).to.deep.equal({ ok: true, version: 6 });
    expect(negotiateProtocol('x', {})).to.deep.equal({ ok: true, version: 6 });
    expect(negotiateProtocol('x', { PLUGIN_PROTOCOL_VERSIONS: 'junk,6' })).to.deep.equal({ ok: true, version: 6 });
    const refused = negotiateProtocol('terraform-provider-x', { PLUGIN_PROTOCOL_VERSIONS: '4,5' });
    expect(refused.ok).to.equal(false);
    if (!refused.ok) {
      expect(refused.message).to.contain('protocol version 6').and.contain('4, 5');
      expect(refused.message.split('|')).to.have.length.below(4);
    }
  });

  it('formats the handshake line and the reattach config', () => {
    expect(handshakeLine('127.0.0.1:1234', null)).to.equal('1|6|tcp|127.0.0.1:1234|grpc|\n');
    expect(handshakeLine('127.0.0.1:1234', Buffer.from([1, 2, 3, 4]))).to.equal('1|6|tcp|127.0.0.1:1234|grpc|AQIDBA\n');
    expect(reattachConfig('registry.terraform.io/keel/sec', '127.0.0.1:9', 42)).to.deep.equal({
      'registry.terraform.io/keel/sec': {
        Protocol: 'grpc',
        ProtocolVersion: 6,
        Pid: 42,
        Test: true,
        Addr: { Network: 'tcp', String: '127.0.0.1:9' },
      },
    });
  });
});

describe('server/tls', () => {
  it('makes a go-plugin-shaped P-256 certificate', async () => {
    const cert = await generateCertificate();
    const x = new X509Certificate(cert.certDer);
    expect(x.subjectAltName).to.equal('DNS:localhost');
    expect(x.subject).to.equal('CN=localhost');
    expect(x.ca).to.equal(true);
    expect(x.keyUsage).to.have.members(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']); // Node's keyUsage = EKU OIDs
    expect(x.publicKey.asymmetricKeyDetails?.namedCurve).to.equal('prime256v1');
    expect(Date.parse(x.validFrom)).to.be.below(Date.now() - 20_000);
    expect(Number.parseInt(x.serialNumber[0]!, 16)).to.be.below(8); // positive INTEGER
    expect(x.checkPrivateKey((await import('node:crypto')).createPrivateKey(cert.keyPem))).to.equal(true);
    expect(cert.certPem).to.match(/^-----BEGIN CERTIFICATE-----\n/);
  });

  it('signs the certificate with its own key, and marks CA and key usage critical as go-plugin does', async () => {
    const { certDer } = await generateCertificate();
    const x = new X509Certificate(certDer);
    expect(x.verify(x.publicKey)).to.equal(true);
    expect(x.checkHost('localhost')).to.equal('localhost');
    expect(x.issuer).to.equal(x.subject);
    const text = x.toLegacyObject() as unknown as Record<string, string>;
    expect(text.ext_key_usage).to.deep.equal(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    // BasicConstraints (critical, CA:TRUE) then KeyUsage (critical, bits 0 2 4 5).
    const hex = certDer.toString('hex');
    expect(hex).to.contain('0603551d130101ff040530030101ff');
    expect(hex).to.contain('0603551d0f0101ff0404030202ac');
    expect(Date.parse(x.validTo) - Date.parse(x.validFrom)).to.be.greaterThan(364 * 24 * 3600 * 1000);
  });

  it('encodes the handshake field as unpadded standard base64 and parses it back strictly', () => {
    const der = Buffer.from([0xfb, 0xff, 0xbf, 0x01]); // standard alphabet: '+/+/AQ=='
    const field = handshakeCertField(der);
    expect(field).to.equal('+/+/AQ');
    expect(field).not.to.contain('=');
    expect(parseHandshakeCertField(field).equals(der)).to.equal(true);
    expect(() => parseHandshakeCertField(der.toString('base64'))).to.throw(/illegal base64/);
    expect(() => parseHandshakeCertField(der.toString('base64url'))).to.throw(/illegal base64/);
  });
});

describe('server/proto', () => {
  it('lists exactly the Provider RPCs of the proto, with the streaming ones marked', () => {
    const methods = serviceMethods('tfplugin6.Provider');
    expect(methods.map((m) => m.name)).to.deep.equal([...PROVIDER_RPC_NAMES]);
    const streaming = methods.filter((m) => m.requestStream || m.responseStream).map((m) => m.name);
    expect(new Set(streaming)).to.deep.equal(STREAMING_RPC_NAMES);
  });

  it('generated services and messages match the .proto sources', () => {
    for (const service of allServices()) {
      const expected = service.methodsArray.map((m) => ({
        name: m.name,
        requestType: m.resolvedRequestType!.fullName.slice(1),
        responseType: m.resolvedResponseType!.fullName.slice(1),
        requestStream: m.requestStream === true,
        responseStream: m.responseStream === true,
      }));
      expect(serviceMethods(service.fullName.slice(1)), service.fullName).to.deep.equal(expected);
    }
    const types = allMessageTypes();
    expect(types.length).to.be.greaterThan(100);
    for (const type of types) expect(() => messageType(type.fullName.slice(1)), type.fullName).not.to.throw();
    expect(() => messageType('tfplugin6.NoSuchMessage')).to.throw(/no message type tfplugin6.NoSuchMessage/);
    expect(() => messageType('tfplugin6')).to.throw(/no message type/);
  });

  it('generated codecs write and read the same bytes as protobufjs reflection over the .proto sources', () => {
    const samples: [string, Record<string, unknown>][] = [
      [
        'tfplugin6.GetProviderSchema.Response',
        {
          provider: {
            version: 1,
            block: { attributes: [{ name: 'token', type: Buffer.from('"string"'), optional: true, sensitive: true }] },
          },
          resource_schemas: {
            a_b: {
              version: 2,
              block: { block_types: [{ type_name: 'r', nesting: 3, min_items: 1, block: { deprecated: true } }] },
            },
          },
          server_capabilities: { plan_destroy: true, get_provider_schema_optional: true },
          diagnostics: [
            {
              severity: 1,
              summary: 's',
              detail: 'd',
              attribute: {
                steps: [{ attribute_name: 'a' }, { element_key_string: 'k' }, { element_key_int: 9007199254740991 }],
              },
            },
          ],
        },
      ],
      [
        'tfplugin6.PlanResourceChange.Request',
        {
          type_name: 'a_b',
          prior_state: { msgpack: Buffer.from([0xc0]) },
          proposed_new_state: { json: Buffer.from('{}') },
          prior_private: Buffer.from('p'),
          client_capabilities: { deferral_allowed: true, write_only_attributes_allowed: true },
        },
      ],
      [
        'tfplugin6.ApplyResourceChange.Response',
        { new_state: { msgpack: Buffer.from([0x80]) }, private: Buffer.alloc(0), legacy_type_system: false },
      ],
    ];
    for (const [name, object] of samples) {
      const reflected = protoSourcesRoot().lookupType(name);
      const staticBytes = encodeMessage(messageType(name), object);
      const reflectedBytes = Buffer.from(reflected.encode(reflected.fromObject(object)).finish());
      expect(staticBytes.equals(reflectedBytes), name).to.equal(true);
      expect(decodeMessage(messageType(name), staticBytes), name).to.deep.equal(
        reflected.toObject(reflected.decode(staticBytes), {
          defaults: true,
          longs: Number,
          enums: Number,
          oneofs: true,
        }),
      );
    }
  });

  it('round-trips plain objects: snake_case, Buffers, numeric enums and int64, defaults filled', () => {
    const type = messageType('tfplugin6.GetProviderSchema.Response');
    const bytes = encodeMessage(type, {
      provider: { version: 0, block: {} },
      resource_schemas: {
        x_thing: {
          version: 3,
          block: {
            attributes: [{ name: 'id', type: Buffer.from('"string"'), computed: true }],
            block_types: [{ type_name: 'rule', nesting: 'LIST', max_items: 1, block: {} }],
          },
        },
      },
      diagnostics: [
        { severity: 2, summary: 's', attribute: { steps: [{ attribute_name: 'a' }, { element_key_int: 4 }] } },
      ],
    });
    const decoded = decodeMessage(type, bytes);
    expect(decoded.provider_meta).to.equal(null);
    expect(decoded.data_source_schemas).to.deep.equal({});
    const schema = decoded.resource_schemas.x_thing;
    expect(schema.version).to.equal(3);
    expect(Buffer.isBuffer(schema.block.attributes[0].type)).to.equal(true);
    expect(schema.block.attributes[0]).to.include({ name: 'id', computed: true, optional: false, description: '' });
    expect(schema.block.block_types[0]).to.include({ nesting: 2, max_items: 1, min_items: 0 });
    expect(decoded.diagnostics[0].attribute.steps).to.deep.equal([
      { attribute_name: 'a', selector: 'attribute_name' },
      { element_key_int: 4, selector: 'element_key_int' },
    ]);
  });

  it('decodes an empty request with null messages and empty bytes', () => {
    const decoded = decodeMessage(messageType('tfplugin6.ReadResource.Request'), Buffer.alloc(0));
    expect(decoded).to.include({ type_name: '', current_state: null, client_capabilities: null });
    expect(Buffer.isBuffer(decoded.private) && decoded.private.length === 0).to.equal(true);
  });

  it('builds grpc-js service definitions with the right paths', () => {
    const def = serviceDefinition('tfplugin6.Provider');
    expect(def.GetProviderSchema!.path).to.equal('/tfplugin6.Provider/GetProviderSchema');
    expect(def.ListResource!.responseStream).to.equal(true);
    expect(def.WriteStateBytes!.requestStream).to.equal(true);
    expect(serviceDefinition('plugin.GRPCController').Shutdown!.path).to.equal('/plugin.GRPCController/Shutdown');
    expect(serviceDefinition('plugin.GRPCStdio').StreamStdio!.path).to.equal('/plugin.GRPCStdio/StreamStdio');
    expect(serviceDefinition('plugin.GRPCBroker').StartStream!.requestStream).to.equal(true);
  });
});
