/**
 * A constant table (an UPPER_CASE object) is looked up by a key from outside the process
 * (Terraform's configuration, a platform's answer, a request to an emulator, an environment
 * variable, a file) only through packages/framework/src/wire/own-entry.ts (`ownEntry`, `isOwnKey`), which sees the
 * table's own entries: `TABLE[key]` and `key in TABLE` find what every object inherits
 * (`constructor`, `toString`, `__proto__`, …), so that `event_categories = ["constructor"]` reached
 * Object's constructor function where a subcategory name was expected. Every `TABLE[key]` and
 * `key in TABLE` of src/ whose key is not a literal must either go through the helper or be in
 * CODE_KEYS below with the reason its key is the code's own; a new one fails here until someone
 * decides which. Read by the TypeScript parser, so comments and strings do not count and a look-up
 * over several lines does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/** The convention of the code for a constant table's name. */
const TABLE_NAME = /^[A-Z][A-Z0-9_]{2,}$/;
const HELPERS = new Set(['ownEntry', 'isOwnKey']);

/**
 * The look-ups by a key that is not a literal and needs no helper: the key is the code's own (a
 * type's member, a proto descriptor's, a constant list's), or checked against a closed list first.
 */
const CODE_KEYS: Record<string, string> = {
  'packages/framework/src/release/build.ts: RUNTIME_PINS[platform]':
    'a platform of PLATFORMS, which parsePlatforms checked',
  'packages/framework/src/release/runtimes.ts: RUNTIME_PINS[platform]':
    'a platform of PLATFORMS, which parsePlatforms checked',
  'packages/framework/src/release/runtimes.ts: RUNTIME_PINS[pin.license.fromPlatform]':
    "a pin's own platform, written in RUNTIME_PINS",
  'packages/framework/src/schema/pulumi/naming.ts: DIGIT_WORDS[s[0]!]': 's matched /^[0-9].?/, so s[0] is a digit',
  'packages/framework/src/server/wire-schema.ts: STRING_KIND[a.descriptionKind]': "a schema's DescriptionKind",
  'packages/framework/src/server/wire-schema.ts: STRING_KIND[block.descriptionKind]': "a schema's DescriptionKind",
  'packages/framework/src/server/wire-schema.ts: NESTING[nb.nesting]': "a schema's Nesting",
  'packages/framework/src/server/wire-schema.ts: NESTING[a.nestedType.nesting]':
    "a nested attribute's Nesting in the schema",
  'packages/framework/src/server/provider-service.ts: SEVERITY[d.severity]':
    "a diagnostic's severity, error or warning",
  'packages/framework/src/server/log.ts: SEVERITY[level]': 'level is a LogLevel the logger was given',
  'packages/framework/src/server/log.ts: SEVERITY[this.level]':
    'the LogSetting parseLogSetting chose (through isOwnKey)',
  'src/emulators/cli.ts: FLAG_OF_OPTION[problem.option]': 'an option name faultProfileProblem names',
  'src/emulators/vdb/catalog.ts: PROVIDER_NAMES[provider]': "a provider of the emulator's own REGIONS",
  'src/emulators/vdb/cluster-state.ts: BUSY_PHASE[transition.kind]': "the kind of the emulator's own transition",
  'src/emulators/vdb/cluster-state.ts: FAILED_PHASE[transition.kind]': "the kind of the emulator's own transition",
  "src/emulators/sec/team-members.ts: TEAM_MEMBER_BODIES[forUpdate ? 'TeamMembers:update' : 'TeamMembers']!":
    'one of two literal body names',
  "src/emulators/sec/team-members.ts: TEAM_MEMBER_BODIES[forUpdate ? 'TeamMembers:orgUpdate' : 'TeamMembers:org']!":
    'one of two literal body names',
  "src/emulators/sec/queries.ts: CONFIG_SOURCES[config?.[1] ?? 'CloudA']":
    "Cloud[ABC] out of a query id of the emulator's own catalogue",
  'src/emulators/sec/inventory.ts: CONFIGURATION_TYPES[cloud]': 'csp, checked against INVENTORY_CLOUDS first',
  'src/emulators/core/http-server.ts: SERVER_ERRORS[Math.floor(decision.variant * SERVER_ERRORS.length)]!':
    "an index below the array's length, from the fault profile's random variant",
  'src/emulators/main.ts: EMULATORS[name]': 'parseEmulatorArgs checked the name against EMULATOR_NAMES',
  'src/clients/trust.ts: HANDED_OVER[name]': 'a keyof HANDED_OVER the module passes',
  'src/clients/vdb/codec.ts: INTEGER_RANGES[type]': 'a field type of the compiled proto descriptor',
  'src/clients/sec/cloud-accounts.ts: CLOUD_ACCOUNT_DATA_SCHEMAS[input.type]':
    "the CloudAccountType the resource's definition names",
  'src/clients/sec/container-registries.ts: CONTAINER_REGISTRY_DATA_SCHEMAS[input.data.registryType as T]':
    "the RegistryType the resource's definition names",
  'src/clients/sec/alert-channels.ts: ALERT_CHANNEL_DATA_SCHEMAS[input.type]':
    "the AlertChannelType the resource's definition names",
  'src/clients/sec/report-rules.ts: REPORT_SEVERITIES[n - 1]!': 'n is an integer from 1 to the length, checked by zod',
  'src/resources/vdb/rules.ts: VDB_FIELD_RULES[full]': "a field name the resource's definition gives",
  'src/resources/vdb/rules.ts: VDB_FIELD_TYPES[`${PACKAGE}${field}`]': "a field name the resource's definition gives",
  'src/resources/vdb/rules.ts: kind in INTEGER_KINDS': "a rule kind of the compiled proto's buf.validate annotations",
  'src/resources/vdb/rules.ts: kind in FLOAT_KINDS': "a rule kind of the compiled proto's buf.validate annotations",
  'src/resources/vdb/rules.ts: INTEGER_KINDS[kind]!': 'checked by `kind in INTEGER_KINDS` (a proto rule kind)',
  'src/resources/vdb/rules.ts: FLOAT_KINDS[kind]!': 'checked by `kind in FLOAT_KINDS` (a proto rule kind)',
  'src/resources/vdb/rules.ts: VDB_FIELD_ENUMS[`${PACKAGE}${field}`]': "a field name the resource's definition gives",
  'src/resources/sec/integration/cloud-account/family.ts: SHAPES[spec.status]':
    "the status shape a resource's spec names",
  'src/resources/sec/external-id.ts: RANDOM_CHARACTERS[randomInt(RANDOM_CHARACTERS.length)]':
    "a random index below the string's length",
  'src/resources/sec/report-rule/reports.ts: REPORT_BLOCKS[name]': 'a ReportBlockName of REPORT_BLOCK_NAMES',
  'src/workload/mass-config.ts: SEC_KINDS[k]!': 'k from the literal cycle of kinds beside it',
  'src/workload/mass-config.ts: VDB_KINDS[k]!': 'k from the literal cycle of kinds beside it',
  'src/workload/mass-config.ts: CYCLES[provider]': "the connection's Provider, sec or vdb",
  'packages/framework/src/wire/grpc-call.ts: DEADLINE_UNIT_MS[match[2]!]!': 'one of HMSmun, matched by DEADLINE',
  'src/wire/sec-contract/index.ts: SEC_CONTRACT[bodyName]': 'a body name of a contract field the code names',
  'src/wire/sec-contract/language.ts: STRING_FORMATS[spec.format]': "the StringFormat of the contract's own spec",
  'src/wire/sec-contract/language.ts: FORMAT_NAMES[spec.format]': "the StringFormat of the contract's own spec",
  'src/docs/vdb-field-rules.ts: VDB_FIELD_ENUMS[full]': 'a field of the compiled proto',
  'src/clients/sec/alert-channel-data.ts: READ_AS[type as keyof Specs]': "a type of the contract's own table",
  'src/resources/sec/wired-fields.ts: HELD_AS[spec.kind]': "the kind of the contract's own spec",
  'src/docs/sec-field-rules.ts: FORMATS[(spec as { format: StringFormat }).format]':
    "the StringFormat of the contract's own spec",
  "src/docs/framework-guide.ts: LANGUAGES[file.slice(file.lastIndexOf('.') + 1)]":
    'the extension of a file of the constant EXAMPLE_PROVIDER_FILES',
};

/** Sites whose key comes from outside, each through the helper (where the key comes from). */
const OUTSIDE_KEYS: Record<string, string> = {
  'src/clients/sec/alert-rule-values.ts: ownEntry(LEGACY_ALERT_RULE_SUBCATEGORIES, name)':
    "an alert rule's subcategory, in Terraform's configuration or the platform's answer",
  'src/clients/sec/cloud-accounts.ts: isOwnKey(CLOUD_ACCOUNT_DATA_SCHEMAS, type)': 'the type of a listed cloud account',
  'src/clients/sec/cloud-accounts.ts: ownEntry(CLOUD_ACCOUNT_DATA_SCHEMAS, account.type)':
    'the type the platform answered',
  'src/clients/sec/alert-channels.ts: ownEntry(ALERT_CHANNEL_DATA_SCHEMAS, channel.type)':
    'the type the platform answered',
  'src/clients/sec/alert-channels.ts: isOwnKey(ALERT_CHANNEL_DATA_SCHEMAS, type)': 'the type of a listed channel',
  'src/clients/sec/container-registries.ts: ownEntry(CONTAINER_REGISTRY_DATA_SCHEMAS, registryType)':
    'the registry type the platform answered',
  'src/clients/proxy.ts: ownEntry(DEFAULT_PORTS, target.protocol)': 'the protocol of a URL',
  'packages/framework/src/wire/go-duration.ts: ownEntry(NANOS_PER_UNIT, unitText)':
    'the unit of a duration in configuration or an answer',
  'src/wire/sec-contract/vulnerability-exceptions.ts: ownEntry(VULNERABILITY_SCOPE_KEYS, type)':
    "an exception's type, in a request to the emulator",
  'packages/framework/src/schema/json.ts: ownEntry(ESCAPES, e)':
    'the character after a backslash in JSON from Terraform',
  'packages/framework/src/schema/value-ops.ts: ownEntry(GO_ESCAPES, cp)': 'a code point of a string value',
  'packages/framework/src/server/log.ts: isOwnKey(SEVERITY, v)': 'TF_LOG and its kin, from the environment',
  'packages/framework/src/schema/schema-from-proto.ts: ownEntry(NESTING, nb.nesting)':
    "the nesting a provider's schema answered",
  'packages/framework/src/schema/schema-from-proto.ts: ownEntry(NESTING, a.nested_type.nesting)':
    "a nested attribute's nesting, as the provider's schema answered it",
  'src/emulators/sec/vulnerability-exceptions.ts: ownEntry(VULNERABILITY_SCOPE_KEYS, type)':
    "an exception's type, in a request",
  'src/emulators/sec/resource-groups.ts: ownEntry(RESOURCE_GROUP_FIELDS, resourceType)':
    "a resource group's type, in a request",
  'src/emulators/vdb/cron.ts: ownEntry(LAYOUTS, fields.length)': 'the field count of a schedule, in a request',
  'src/resources/sec/alert-rule.ts: ownEntry(LEGACY_ALERT_RULE_SUBCATEGORIES, value)':
    'a subcategory in the configuration, at validation',
  'src/resources/sec/resource-group/tree.ts: ownEntry(FILTER_FIELDS, type)':
    "a resource group's type, in configuration",
  "src/resources/sec/profile-file.ts: ownEntry(FILE_ERRORS, code ?? '')": "the error code of reading the user's file",
  'src/resources/vdb/functions/cluster-endpoint.ts: ownEntry(PORTS, protocol as string)': "a function's argument",
};

interface Found {
  /** `TABLE[key]` or `key in TABLE`, by a key that is not a literal. */
  readonly lookUps: string[];
  /** `ownEntry(TABLE, key)` and `isOwnKey(TABLE, key)`. */
  readonly helpers: string[];
}

const LITERAL_KEYS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
]);

/** The look-ups in constant tables in one module's text, each as `<file>: <code>`. */
function tableSites(file: string, text: string): Found {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Found = { lookUps: [], helpers: [] };
  const shown = (node: ts.Node) => `${file}: ${node.getText(source).replace(/\s+/g, ' ').replace(/\( /g, '(')}`;
  const isTable = (node: ts.Node) => ts.isIdentifier(node) && TABLE_NAME.test(node.text);
  const visit = (node: ts.Node): void => {
    if (ts.isElementAccessExpression(node) && isTable(node.expression)) {
      if (!LITERAL_KEYS.has(node.argumentExpression.kind)) {
        // With the non-null assertion that often follows, as the code reads.
        found.lookUps.push(shown(ts.isNonNullExpression(node.parent) ? node.parent : node));
      }
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.InKeyword &&
      isTable(node.right) &&
      !LITERAL_KEYS.has(node.left.kind)
    ) {
      found.lookUps.push(shown(node));
    } else if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      HELPERS.has(node.expression.text) &&
      node.arguments[0] !== undefined &&
      isTable(node.arguments[0])
    ) {
      found.helpers.push(shown(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('constant tables: keys from outside find only their own entries', () => {
  const all: Found = { lookUps: [], helpers: [] };
  before(() => {
    const files = [...sourceFiles('src'), ...sourceFiles('packages/framework/src')];
    expect(files.length).to.be.greaterThan(100);
    for (const file of files) {
      const found = tableSites(file, readFileSync(file, 'utf8'));
      all.lookUps.push(...found.lookUps);
      all.helpers.push(...found.helpers);
    }
  });

  it('every TABLE[key] and key in TABLE of src/ goes through ownEntry/isOwnKey or has its reason in CODE_KEYS', () => {
    const undecided = all.lookUps.filter((site) => !Object.hasOwn(CODE_KEYS, site));
    expect(
      undecided,
      'a constant table looked up by a key that is not a literal: if the key can come from outside ' +
        '(configuration, an answer, a request, the environment, a file), use ownEntry or isOwnKey ' +
        '(packages/framework/src/wire/own-entry.ts); if the code chose it, add it to CODE_KEYS with the reason',
    ).to.deep.equal([]);
  });

  it('finds every site CODE_KEYS lists (none is stale) and every fixed site through the helper', () => {
    const stale = Object.keys(CODE_KEYS).filter((site) => !all.lookUps.includes(site));
    expect(stale, 'CODE_KEYS names sites the code no longer has: remove them').to.deep.equal([]);
    expect(all.lookUps.length).to.be.at.least(Object.keys(CODE_KEYS).length);
    const missing = Object.keys(OUTSIDE_KEYS).filter((site) => !all.helpers.includes(site));
    expect(missing, 'OUTSIDE_KEYS names look-ups through the helper the scanner does not find').to.deep.equal([]);
  });

  it('the scanner: a look-up over lines and through ?. counts; literals, comments and strings do not', () => {
    const text = [
      "const A = TABLE['x'] ?? TABLE[0] ?? TABLE[`y`];",
      '// TABLE[key] in a comment; FIELD[:path] [as NAME]',
      "const s = 'TABLE[key] and key in TABLE';",
      'const b = TABLE[',
      '  key',
      ']!;',
      'const c = TABLE?.[other];',
      "const d = key in TABLE || 'k' in TABLE;",
      'const e = table[key] ?? Ab[key] ?? ownEntry(TABLE, key) ?? isOwnKey(TABLE, key) ?? ownEntry(table, key);',
    ].join('\n');
    expect(tableSites('x.ts', text)).to.deep.equal({
      lookUps: ['x.ts: TABLE[ key ]!', 'x.ts: TABLE?.[other]', 'x.ts: key in TABLE'],
      helpers: ['x.ts: ownEntry(TABLE, key)', 'x.ts: isOwnKey(TABLE, key)'],
    });
  });
});
