/**
 * Where the example of a resource or data source lives (test/acceptance/CASES.md): the resource
 * `<type>` in `examples/<provider>/<type>/`. A data source uses the same directory when no resource
 * has its name; where one does (e.g. `sec_agent_access_token` is both), the data source's example is
 * `examples/<provider>/data_<type>/`, which is always accepted. `<type>/` counts as a data source's
 * when its `main.tf` reads the data source and declares no resource of that type.
 */
/** Reads a file relative to the repository root; undefined when it does not exist. */
export type FileReader = (relativePath: string) => string | undefined;

export interface ExampleLocation {
  /** The example directory, relative to the repository root. */
  dir: string;
  /** Its `main.tf` text. */
  mainTf: string;
}

/** Directories to try for an example, in order, relative to the repository root. */
export function exampleDirs(provider: string, kind: ExampleKind, typeName: string): string[] {
  const own = `examples/${provider}/${typeName}`;
  if (kind === 'ephemeral') return [`examples/${provider}/ephemeral/${typeName}`];
  if (kind === 'list') return [`examples/${provider}/query`];
  if (kind === 'action') return [`examples/${provider}/actions/${typeName}`];
  return kind === 'resource' ? [own] : [`examples/${provider}/data_${typeName}`, own];
}

/**
 * Ephemeral resources have theirs in `examples/<provider>/ephemeral/<type>/`; list resources have
 * `examples/<provider>/query/<type>.tfquery.hcl`, in one directory that `terraform query` runs whole;
 * actions have `examples/<provider>/actions/<type>/main.tf` (Terraform 1.14 and later only, so no
 * acceptance case: test/protocol replays the requests Terraform 1.14 sends for them).
 */
export type ExampleKind = 'resource' | 'data-source' | 'ephemeral' | 'list' | 'action';

/** The example of a resource or data source, or undefined when it has none. */
export function findExample(
  provider: string,
  kind: ExampleKind,
  typeName: string,
  readFile: FileReader,
): ExampleLocation | undefined {
  for (const dir of exampleDirs(provider, kind, typeName)) {
    const mainTf = readFile(kind === 'list' ? `${dir}/${typeName}.tfquery.hcl` : `${dir}/main.tf`);
    if (mainTf === undefined) continue;
    // A data source may use `<type>/` only when that example is its own, not a resource's.
    if (kind === 'data-source' && dir.endsWith(`/${typeName}`) && !isDataSourceExample(mainTf, typeName)) continue;
    return { dir, mainTf };
  }
  return undefined;
}

function isDataSourceExample(mainTf: string, typeName: string): boolean {
  return mainTf.includes(`data "${typeName}"`) && !mainTf.includes(`resource "${typeName}"`);
}
