/**
 * What only a release needs: esbuild (the bundle), tar (Node's runtime packages) and postject (the Windows
 * executable). They are the author's devDependencies, not the framework's, so a package that depends on
 * a provider, or an author who only serves and tests one, installs none of them; each is loaded when a
 * release first needs it, and a release checks all three before it starts.
 */
type ReleaseTool = 'esbuild' | 'tar' | 'postject';

const INSTALL = 'npm install --save-dev esbuild tar postject';

/** The module `name`, or an error that says which release tools are missing and how to add them. */
async function loaded<T>(name: ReleaseTool, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw isMissing(err) ? missingTools([name]) : err;
  }
}

const isMissing = (err: unknown): boolean =>
  (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_MODULE_NOT_FOUND' ||
  (err as NodeJS.ErrnoException | undefined)?.code === 'MODULE_NOT_FOUND';

function missingTools(names: readonly ReleaseTool[]): Error {
  return new Error(
    `a release needs ${names.join(', ')}, which a provider lists in its own devDependencies (the framework ` +
      `does not install them for everyone who uses it): ${INSTALL}`,
  );
}

export const releaseTools = {
  esbuild: () => loaded('esbuild', () => import('esbuild')),
  tar: () => loaded('tar', () => import('tar')),
  postject: () => loaded('postject', () => import('postject')),
};

/** Refuses to start a release without every tool it needs, naming all the missing ones at once. */
export async function requireReleaseTools(): Promise<void> {
  const missing: ReleaseTool[] = [];
  for (const [name, load] of Object.entries(releaseTools) as [ReleaseTool, () => Promise<unknown>][]) {
    try {
      await load();
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('a release needs')) throw err;
      missing.push(name);
    }
  }
  if (missing.length > 0) throw missingTools(missing);
}
