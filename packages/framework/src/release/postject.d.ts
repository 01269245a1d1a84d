/** postject (the Node project's resource injector) ships no types; the one function the release calls. */
declare module 'postject' {
  export function inject(
    filename: string,
    resourceName: string,
    resourceData: Buffer,
    options?: { readonly sentinelFuse?: string; readonly machoSegmentName?: string; readonly overwrite?: boolean },
  ): Promise<void>;
}
