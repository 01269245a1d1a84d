/**
 * The unordered collections of the cluster and the hybrid environment are sets, and each one's
 * description tells configurations written for 1.19.2 (where they were lists) which expressions to
 * use instead of an index. This runs every expression those descriptions give, as they give them,
 * in outputs under real Terraform, so the documented forms are known to work.
 */
import { expect } from 'chai';
import vdb from '../../src/resources/vdb/index.js';
import type { SchemaBlock } from '../../packages/framework/src/schema/block.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { Workspace, requireTerraform } from './terraform.js';

interface SetNote {
  readonly attribute: string;
  readonly nesting: string;
  /** The indexed form it replaces, the `tolist(...)[0]` form and the select-by-content form, as the description writes them. */
  readonly expressions: readonly string[];
}

/** How the note on sets begins (src/resources/vdb/common.ts, setNote). */
const SET_NOTE_START = 'A set, it cannot be indexed: ';

/** Every description that carries the note on sets, with the expressions it quotes. */
function setNotes(block: SchemaBlock, at: string): SetNote[] {
  const notes: SetNote[] = [];
  const visit = (name: string, description: string, nesting: string) => {
    if (!description.includes(SET_NOTE_START)) return;
    const quoted = [...description.slice(description.indexOf(SET_NOTE_START)).matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    notes.push({ attribute: `${at}.${name}`, nesting, expressions: quoted });
  };
  for (const [name, a] of Object.entries(block.attributes)) visit(name, a.description, a.type.kind);
  for (const [name, b] of Object.entries(block.blockTypes)) {
    visit(name, b.block.description, b.nesting);
    notes.push(...setNotes(b.block, `${at}.${name}`));
  }
  return notes;
}

describe('acceptance: the documented expressions for vdb sets work under real Terraform', function () {
  this.timeout(300_000);
  let emulator: VdbEmulator;
  let ws: Workspace;

  const schemaOf = (type: string) => vdb.resources.find((r) => r.typeName === type)!.schema.block;
  const notes = [
    ...setNotes(schemaOf('vdb_accounts_cluster'), 'vdb_accounts_cluster'),
    ...setNotes(schemaOf('vdb_accounts_hybrid_cloud_environment'), 'vdb_accounts_hybrid_cloud_environment'),
  ];

  before(async function () {
    requireTerraform(this);
    emulator = await startVdbEmulator({ provisioningMs: 200 });
  });
  after(async () => {
    ws?.dispose();
    await emulator?.close();
  });

  it('every unordered collection is a set whose description says how to replace an index', () => {
    expect(notes.map((n) => n.attribute).sort()).to.deep.equal([
      'vdb_accounts_cluster.configuration.allowed_ip_source_ranges',
      'vdb_accounts_cluster.configuration.annotations',
      'vdb_accounts_cluster.configuration.node_selector',
      'vdb_accounts_cluster.configuration.pod_labels',
      'vdb_accounts_cluster.configuration.service_annotations',
      'vdb_accounts_cluster.configuration.tolerations',
      'vdb_accounts_cluster.configuration.topology_spread_constraints',
      'vdb_accounts_cluster.labels',
      'vdb_accounts_hybrid_cloud_environment.configuration.control_plane_labels',
      'vdb_accounts_hybrid_cloud_environment.configuration.no_proxy_configs',
      'vdb_accounts_hybrid_cloud_environment.configuration.node_selector',
      'vdb_accounts_hybrid_cloud_environment.configuration.tolerations',
    ]);
    for (const note of notes) {
      expect(note.nesting, note.attribute).to.equal('set');
      expect(note.expressions, note.attribute).to.have.length(3);
      const [indexed, tolist] = note.expressions;
      expect(tolist, note.attribute).to.equal(`tolist(${indexed!.replace(/\[0\]$/, '')})[0]`);
    }
  });

  it('the replacement expressions evaluate to the configured entries', async () => {
    const kv = (name: string) => `${name} {\n    key   = "team"\n    value = "search"\n  }`;
    const toleration = (name: string) =>
      `${name} {\n    key      = "dedicated"\n    operator = "TOLERATION_OPERATOR_EQUAL"\n    value    = "vdb"\n  }`;
    const outputs = notes.flatMap((note, i) =>
      note.expressions.slice(1).map((expression, j) => `output "o_${i}_${j}" {\n  value = ${expression}\n}\n`),
    );
    ws = new Workspace(
      `terraform {
  required_providers {
    vdb = { source = "keel/vdb" }
  }
}

provider "vdb" {}

resource "vdb_accounts_hybrid_cloud_environment" "example" {
  name = "sets"
  bootstrap_commands_version = -1
  configuration {
    namespace        = "vdb"
    no_proxy_configs = [".internal", ".corp"]
    ${kv('node_selector')}
    ${toleration('tolerations')}
    ${kv('control_plane_labels')}
  }
}

resource "vdb_accounts_cluster" "example" {
  name           = "sets"
  cloud_provider = "aws"
  cloud_region   = "eu-central-1"
  ${kv('labels')}
  configuration {
    number_of_nodes          = 1
    allowed_ip_source_ranges = ["10.0.0.0/8", "192.168.0.0/16"]
    node_configuration {
      package_id = "${emulator.packageId('aws', 'small')}"
    }
    ${kv('node_selector')}
    ${toleration('tolerations')}
    ${kv('annotations')}
    ${kv('service_annotations')}
    ${kv('pod_labels')}
    topology_spread_constraints {
      max_skew           = 1
      topology_key       = "topology.kubernetes.io/zone"
      when_unsatisfiable = "TOPOLOGY_SPREAD_CONSTRAINT_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE"
    }
  }
}

${outputs.join('\n')}`,
      vdbProviderEnv(emulator),
    );
    await ws.expect(['apply', '-auto-approve', '-no-color']);
    const values = JSON.parse((await ws.expect(['output', '-json'])).stdout) as Record<string, { value: unknown }>;
    notes.forEach((note, i) => {
      const [first, selected] = [values[`o_${i}_0`]!.value, values[`o_${i}_1`]!.value];
      expect(first, `${note.expressions[1]}`).to.not.equal(null);
      if (note.nesting === 'set' && typeof first === 'string') {
        // Sets of strings: tolist sorts them; the select form tests membership.
        expect(first, note.attribute).to.equal(note.attribute.endsWith('no_proxy_configs') ? '.corp' : '10.0.0.0/8');
        expect(selected, note.expressions[2]).to.equal(true);
      } else if (note.expressions[2]!.startsWith('{')) {
        expect(first, note.attribute).to.deep.equal({ key: 'team', value: 'search' });
        expect(selected, note.expressions[2]).to.equal('search');
      } else {
        expect(selected, note.expressions[2]).to.be.an('array').with.length(1);
        expect((selected as unknown[])[0], note.expressions[2]).to.deep.equal(first);
      }
    });
  });
});
