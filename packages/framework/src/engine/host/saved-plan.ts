/**
 * The state a saved plan was made against (`terraform apply PLANFILE`): the plan file is a zip archive
 * whose `tfstate` entry holds the prior state, in the state file's JSON format (version 4). An apply of
 * a saved plan makes no plan walk, so this is where the apply learns which objects its state holds: a
 * renamed key's old object, the one a `create_before_destroy` replacement replaces (docs/decisions.md,
 * "Whose object is it"). Read through yauzl, bounded; a file it cannot read (OpenTofu's encrypted plans,
 * a path gone) reads as not known, the same way every time.
 */
import yauzl from 'yauzl';

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

/** The objects of managed resources whose type starts with `prefix` in the prior state of the plan file at `path`. */
export async function priorStateObjects(
  path: string,
  prefix: string,
  maxBytes = MAX_PRIOR_STATE_BYTES,
): Promise<StoredObject[]> {
  const text = await readEntry(path, PRIOR_STATE_ENTRY, maxBytes);
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

function readEntry(path: string, name: string, maxBytes: number): Promise<string> {
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
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        });
      });
      zip.readEntry();
    });
  });
}
