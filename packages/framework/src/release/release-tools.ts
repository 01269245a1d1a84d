/**
 * What only a release needs: esbuild (the bundle), tar (Node's runtime packages) and postject (the Windows
 * executable). They are the author's devDependencies, not the framework's, so a package that depends on
 * a provider, or an author who only serves and tests one, installs none of them; each is loaded when a
 * release first needs it, and a release checks all three before it starts.
 */
type ReleaseTool = 'esbuild' | 'tar' | 'postject';

const INSTALL = 'npm install --save-dev esbuild tar postject';

/** A release tool that is not installed, with how to add it. */
class MissingReleaseTools extends Error {
  constructor(readonly tools: readonly ReleaseTool[]) {
    super(
      `a release needs ${tools.join(', ')}, which a provider lists in its own devDependencies (the framework ` +
        `does not install them for everyone who uses it): ${INSTALL}`,
    );
  }
}

/** The module `name`, or MissingReleaseTools when it is not installed. */
async function loaded<T>(name: ReleaseTool, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw isMissing(err) ? new MissingReleaseTools([name]) : err;
  }
}

const isMissing = (err: unknown): boolean =>
  (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_MODULE_NOT_FOUND' ||
  (err as NodeJS.ErrnoException | undefined)?.code === 'MODULE_NOT_FOUND';

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
      if (!(err instanceof MissingReleaseTools)) throw err;
      missing.push(name);
    }
  }
  if (missing.length > 0) throw new MissingReleaseTools(missing);
}
