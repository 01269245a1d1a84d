/**
 * A provider for the tests of nested attributes (tfplugin6 `nested_type`, `attr.nested`): `nester`,
 * whose platform keeps servers with settings (one object), rules (a list), members (a set) and ports
 * (a map), each with an inner value the platform computes. The platform is a JSON file when
 * `NESTER_STORE` names one (the executable, test/acceptance/nested-provider.ts: Terraform starts a
 * process per walk), otherwise the memory of the process.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { attr, resourceSchema, validators } from '../../packages/framework/src/schema/define.js';
import { provider, resource, type ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';

export interface StoredServer {
  id: string;
  name: string;
  settings: { mode: string; retries: number | null; fingerprint: string } | null;
  rules: { port: number; protocol: string; rule_id: string }[] | null;
  members: { name: string; joined: string }[] | null;
  ports: Record<string, { number: number; label: string }> | null;
}

/** The platform: servers by id, in a file or in memory; it counts its writes (`writes`). */
export class Rack {
  private memory: { seq: number; servers: Record<string, StoredServer> } = { seq: 0, servers: {} };
  writes = 0;
  constructor(private readonly file?: string) {}
  private load() {
    if (this.file && existsSync(this.file)) this.memory = JSON.parse(readFileSync(this.file, 'utf8'));
    return this.memory;
  }
  get(id: string): StoredServer | undefined {
    return this.load().servers[id];
  }
  /** Writes a server as planned: the platform fills what it computes, keeping each rule's id by index. */
  put(plan: ServerPlan, id?: string): StoredServer {
    const data = this.load();
    this.writes++;
    const prior = id === undefined ? undefined : data.servers[id];
    const serverId = id ?? `s-${++data.seq}`;
    const stored: StoredServer = {
      id: serverId,
      name: plan.name,
      settings: plan.settings && { ...plan.settings, fingerprint: `fp-${plan.settings.mode}` },
      rules:
        plan.rules?.map((r, i) => ({
          port: r.port,
          protocol: r.protocol ?? 'tcp',
          rule_id: prior?.rules?.[i]?.rule_id ?? `r-${++data.seq}`,
        })) ?? null,
      members: plan.members?.map((m) => ({ name: m.name, joined: `j-${m.name}` })) ?? null,
      ports:
        plan.ports &&
        Object.fromEntries(
          Object.entries(plan.ports).map(([k, p]) => [k, { number: p.number, label: `p${p.number}` }]),
        ),
    };
    data.servers[serverId] = stored;
    if (this.file) writeFileSync(this.file, JSON.stringify(data));
    return stored;
  }
  remove(id: string): void {
    delete this.load().servers[id];
    if (this.file) writeFileSync(this.file, JSON.stringify(this.memory));
  }
}

export const serverSchema = resourceSchema(
  {
    id: attr.computedId(),
    name: attr.string({ required: true, description: 'The name.' }),
    settings: attr.nested({
      nesting: 'single',
      optional: true,
      description: 'How the server runs.',
      attributes: {
        mode: attr.string({
          required: true,
          description: 'The mode.',
          validate: [validators.oneOf('fast', 'safe')],
        }),
        retries: attr.number({ optional: true, description: 'How often to retry.' }),
        fingerprint: attr.string({
          computed: true,
          changesWith: ['mode'],
          description: 'What the platform makes of the mode.',
        }),
      },
    }),
    rules: attr.nested({
      nesting: 'list',
      optional: true,
      description: 'The rules, in order.',
      attributes: {
        port: attr.number({ required: true, description: 'The port.', validate: [validators.intBetween(1, 65535)] }),
        protocol: attr.string({ optional: true, computed: true, description: 'The protocol (`tcp` when unset).' }),
        rule_id: attr.string({ computed: true, description: 'The id the platform gave the rule.' }),
      },
    }),
    members: attr.nested({
      nesting: 'set',
      optional: true,
      description: 'Who may use it.',
      attributes: {
        name: attr.string({ required: true, description: "The member's name." }),
        joined: attr.string({ computed: true, description: 'When the member joined.' }),
      },
    }),
    ports: attr.nested({
      nesting: 'map',
      optional: true,
      description: 'Named ports.',
      attributes: {
        number: attr.number({ required: true, description: 'The port number.' }),
        label: attr.string({ computed: true, changesWith: ['number'], description: 'The label of the port.' }),
      },
    }),
  },
  { description: 'A server with nested attributes.' },
);

export type ServerFields = (typeof serverSchema)['fields'];

interface ServerPlan {
  name: string;
  settings: { mode: string; retries: number | null } | null;
  rules: { port: number; protocol: string | null }[] | null;
  members: { name: string }[] | null;
  ports: Record<string, { number: number }> | null;
}

const modelOf = (s: StoredServer) => ({ ...s });

export const server = resource<ServerFields, Rack>({
  typeName: 'nester_server',
  schema: serverSchema,
  repeatableCreate: 'test double',
  importState: async (id) => ({ id }),
  async create(plan, ctx) {
    return modelOf(ctx.client.put(plan));
  },
  async read(prior, ctx) {
    const found = ctx.client.get(prior.id!);
    return found ? modelOf(found) : null;
  },
  async update(plan, prior, ctx) {
    return modelOf(ctx.client.put(plan, prior.id!));
  },
  async delete(prior, ctx) {
    ctx.client.remove(prior.id!);
  },
});

export function nesterProvider(rack?: Rack): ProviderDef<any, Rack> {
  return provider({
    name: 'nester',
    version: '0.0.1',
    schema: resourceSchema({}, { description: 'A provider of servers with nested attributes.' }),
    configure: async (_config, ctx) => rack ?? new Rack(ctx.env.NESTER_STORE),
    resources: [server],
    dataSources: [],
  });
}
