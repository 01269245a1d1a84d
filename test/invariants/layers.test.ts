/**
 * The layers of ARCHITECTURE.md hold: the rules of .dependency-cruiser.cjs over every import of
 * src/ and scripts/ (type-only imports included), on every run. A violation names its rule, the
 * importing file and the imported one. So that the rules cannot pass by matching nothing, a small
 * tree that breaks each of them in turn must be refused by every one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const CONFIG = './.dependency-cruiser.cjs';

async function violations(options: ICruiseOptions, paths: string[], tsConfig?: ReturnType<typeof extractTSConfig>) {
  const { output } = await cruise(paths, options, undefined, tsConfig ? { tsConfig } : undefined);
  return (output as ICruiseResult).summary.violations.map((v) => ({
    rule: v.rule.name,
    text: `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((step) => step.name).join(' → ') : v.to}`,
  }));
}

describe('layers (.dependency-cruiser.cjs)', function () {
  this.timeout(120_000);

  it('every import of src/ and scripts/ keeps to its layer, and no module imports itself round a circle', async () => {
    const options = await extractDepcruiseOptions(CONFIG);
    const tsConfig = extractTSConfig('tsconfig.json');
    const found = await violations(
      { ...options, validate: true },
      ['src', 'scripts', 'packages/framework/src'],
      tsConfig,
    );
    const comments = new Map((options.ruleSet?.forbidden ?? []).map((rule) => [rule.name, rule.comment]));
    const why = [...new Set(found.map((v) => v.rule))].map((name) => `  ${name}: ${comments.get(name) ?? ''}`);
    expect(
      found.map((v) => v.text),
      `the layers are broken\n${why.join('\n')}\n`,
    ).to.deep.equal([]);
  });

  it('each rule refuses a tree that breaks it', async () => {
    const options = await extractDepcruiseOptions(CONFIG);
    const ruleNames = (options.ruleSet?.forbidden ?? []).map((rule) => rule.name);
    const root = mkdtempSync(join(tmpdir(), 'layers-'));
    // file → what it imports; each line breaks (at least) the rule in its comment.
    const tree: Record<string, string[]> = {
      'packages/framework/src/schema/value.js': ['../engine/plan.js'], // schema-is-the-ground
      'packages/framework/src/wire/api-error.js': ['../schema/value.js'], // wire-is-the-ground
      'packages/framework/src/engine/plan.js': ['../server/service.js'], // engine-on-schema
      'packages/framework/src/server/service.js': ['../index.js'], // server-on-engine
      'packages/framework/src/server/handler.js': ['../engine/plan/rules.js'], // engine-through-its-faces
      'packages/framework/src/engine/plan/rules.js': ['../context/engine-context.js', './index.js'], // engine-parts-meet-at-their-faces
      'packages/framework/src/engine/plan/index.js': [],
      'packages/framework/src/engine/context/engine-context.js': [],
      'packages/framework/src/index.js': ['../../../src/resources/sec/thing.js'], // the-framework-stands-alone
      // providers-use-the-framework-entries, providers-name-the-package (a path, not the name), clients-on-contracts
      'src/clients/sec/client.js': ['../../../packages/framework/src/engine/plan.js', '../../resources/vdb/thing.js'],
      'src/wire/contract.js': ['../clients/sec/client.js'], // contracts-are-the-providers-ground
      'src/schema/forms.js': ['../clients/vdb/client.js'], // forms-on-contracts
      // resources-on-clients, providers-keep-apart
      'src/resources/sec/thing.js': ['../../emulators/sec/handler.js', '../vdb/thing.js'],
      'src/resources/vdb/thing.js': [],
      'src/emulators/sec/handler.js': ['../vdb/handler.js'], // emulators-keep-to-their-api
      'src/emulators/vdb/handler.js': ['../../clients/vdb/client.js'], // emulators-share-only-the-contracts
      'src/emulators/core/store.js': ['../sec/handler.js'], // emulator-core-stands-alone
      'src/clients/vdb/client.js': [],
      'src/docs/a.js': ['./b.js', './missing.js'], // no-circular, imports-resolve
      'src/docs/b.js': ['./a.js'],
      'src/demo/main.js': ['../../test/helper.js'], // no-test-code-in-the-product
      'test/helper.js': [],
    };
    try {
      for (const [file, imports] of Object.entries(tree)) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        const lines = imports.map((target, i) => `import * as m${i} from '${target}';\n`);
        writeFileSync(join(root, file), `${lines.join('')}export const x = 1;\n`);
      }
      const found = await violations({ ruleSet: options.ruleSet, validate: true, baseDir: root }, ['src', 'packages']);
      expect([...new Set(found.map((v) => v.rule))].sort()).to.deep.equal([...ruleNames].sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
