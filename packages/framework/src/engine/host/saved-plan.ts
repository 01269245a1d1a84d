/**
 * The state a saved plan was made against (`terraform apply PLANFILE`): the plan file is a zip archive
 * whose `tfstate` entry holds the prior state, in the state file's JSON format (version 4), and whose
 * `tfplan` entry holds the planned changes (protobuf, Terraform's planfile.proto). An apply of a saved
 * plan makes no plan walk, so this is where the apply learns which objects its state holds: a renamed
 * key's old object, the one a `create_before_destroy` replacement replaces, and not those the plan
 * forgets (a `removed` block with `destroy = false`: docs/decisions.md, "Whose object is it"). Read
 * through yauzl and the protobuf reader, bounded; a file it cannot read (OpenTofu's encrypted plans, a
 * path gone) reads as not known, the same way every time.
 */
import yauzl from 'yauzl';
import { ProtoReader } from '../../wire/protobuf-reader.js';

/** One object of a managed resource in the prior state, as stored. */
export interface StoredObject {
  readonly type: string;
  readonly schemaVersion: number;
  /** Its attributes as the state file stores them (JSON). */
  readonly attributes: string;
}

/** The prior state's JSON is read whole: larger than this, the plan's state is not read. */
export const MAX_PRIOR_STATE_BYTES = 256 * 1024 * 1024;
const PRIOR_STATE_ENTRY = 'tfstate';
const CHANGES_ENTRY = 'tfplan';

/** The objects of managed resources whose type starts with `prefix` in the prior state of the plan file at `path`. */
export async function priorStateObjects(
  path: string,
  prefix: string,
  maxBytes = MAX_PRIOR_STATE_BYTES,
): Promise<StoredObject[]> {
  const text = (await readEntry(path, PRIOR_STATE_ENTRY, maxBytes)).toString('utf8');
  const state = JSON.parse(text) as { version?: unknown; resources?: unknown };
  if (state.version !== 4) throw new Error(`its state has format version ${String(state.version)}, not 4`);
  const out: StoredObject[] = [];
  for (const resource of Array.isArray(state.resources) ? state.resources : []) {
    const { mode, type, instances } = (resource ?? {}) as { mode?: unknown; type?: unknown; instances?: unknown };
    if (mode !== 'managed' || typeof type !== 'string' || !type.startsWith(prefix) || !Array.isArray(instances))
      continue;
    // Deposed objects too: a `create_before_destroy` replacement's old object waits there to be destroyed.
    for (const instance of instances) {
      const { schema_version, attributes } = (instance ?? {}) as { schema_version?: unknown; attributes?: unknown };
      if (typeof attributes !== 'object' || attributes === null) continue;
      const schemaVersion = typeof schema_version === 'number' ? schema_version : 0;
      out.push({ type, schemaVersion, attributes: JSON.stringify(attributes) });
    }
  }
  return out;
}

/** An object of a managed resource the saved plan forgets: its type and prior value (msgpack). */
export interface ForgottenObject {
  readonly type: string;
  readonly msgpack: Buffer;
}

// planfile.proto's fields this reads: Plan.resource_changes, ResourceInstanceChange.addr and .change,
// Change.action and .values, DynamicValue.msgpack; and the actions that take the prior object out of the
// state and leave it on the platform (FORGET, CREATE_THEN_FORGET).
const PLAN_RESOURCE_CHANGES = 3;
const CHANGE_ADDR = 13;
const CHANGE_CHANGE = 9;
const CHANGE_ACTION = 1;
const CHANGE_VALUES = 2;
const DYNAMIC_MSGPACK = 1;
const FORGETTING_ACTIONS = new Set([8, 9]);
const LENGTH_DELIMITED = 2;
const VARINT = 0;

/** The objects of managed resources whose type starts with `prefix` that the plan file at `path` forgets. */
export async function forgottenObjects(
  path: string,
  prefix: string,
  maxBytes = MAX_PRIOR_STATE_BYTES,
): Promise<ForgottenObject[]> {
  const plan = await readEntry(path, CHANGES_ENTRY, maxBytes);
  const reader = new ProtoReader(plan);
  const out: ForgottenObject[] = [];
  eachField(reader, plan.length, (field, wireType) => {
    if (field !== PLAN_RESOURCE_CHANGES || wireType !== LENGTH_DELIMITED) return false;
    const change = resourceChange(reader, reader.lengthEnd());
    const type = managedTypeOf(change.addr);
    if (type?.startsWith(prefix) && FORGETTING_ACTIONS.has(change.action) && change.before)
      out.push({ type, msgpack: change.before });
    return true;
  });
  return out;
}

/** A ResourceInstanceChange up to `end`: its address, action and first value (the prior object's). */
function resourceChange(reader: ProtoReader, end: number): { addr: string; action: number; before?: Buffer } {
  const out: { addr: string; action: number; before?: Buffer } = { addr: '', action: 0 };
  eachField(reader, end, (field, wireType) => {
    if (wireType !== LENGTH_DELIMITED) return false;
    if (field === CHANGE_ADDR) out.addr = reader.string();
    else if (field !== CHANGE_CHANGE) return false;
    else
      eachField(reader, reader.lengthEnd(), (inner, innerType) => {
        if (inner === CHANGE_ACTION && innerType === VARINT) out.action = reader.uint32();
        else if (inner !== CHANGE_VALUES || innerType !== LENGTH_DELIMITED) return false;
        else
          eachField(reader, reader.lengthEnd(), (value, valueType) => {
            if (value !== DYNAMIC_MSGPACK || valueType !== LENGTH_DELIMITED) return false;
            const bytes = reader.bytes();
            out.before ??= bytes;
            return true;
          });
        return true;
      });
    return true;
  });
  return out;
}

/** Reads the fields of a message up to `end`: `visit` reads the field and says true, or says false to skip it. */
function eachField(reader: ProtoReader, end: number, visit: (field: number, wireType: number) => boolean): void {
  while (reader.pos < end) {
    const key = reader.uint32();
    if (!visit(key >>> 3, key & 7)) reader.skip(key & 7);
  }
  if (reader.pos !== end) throw new Error(`its ${CHANGES_ENTRY} entry has a field past its message's end`);
}

/**
 * The resource type of a managed resource instance's address (`module.a["k"].sec_thing.b[0]`), undefined
 * for a data resource's: the second-to-last of its parts, split at dots outside brackets and quotes.
 */
export function managedTypeOf(addr: string): string | undefined {
  const parts: string[] = [];
  let part = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < addr.length; i++) {
    const c = addr[i]!;
    if (quoted) {
      if (c === '\\') part += c + (addr[++i] ?? '');
      else {
        if (c === '"') quoted = false;
        part += c;
      }
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    if (c === '.' && depth === 0) {
      parts.push(part);
      part = '';
    } else part += c;
  }
  parts.push(part);
  if (parts.length < 2 || parts[parts.length - 3] === 'data') return undefined;
  return parts[parts.length - 2];
}

function readEntry(path: string, name: string, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (openError, zip) => {
      if (openError) return reject(openError);
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        zip.close();
        reject(error);
      };
      zip.on('error', fail);
      zip.on('end', () => fail(new Error(`it holds no ${name} entry`)));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        if (entry.uncompressedSize > maxBytes)
          return fail(new Error(`its ${name} entry holds ${entry.uncompressedSize} bytes, over ${maxBytes}`));
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return fail(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', fail);
          stream.on('end', () => {
            if (settled) return;
            settled = true;
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.readEntry();
    });
  });
}
