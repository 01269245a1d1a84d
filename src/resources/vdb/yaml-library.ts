/**
 * The `yaml` package (eemeli/yaml), loaded at its first use: only a hybrid environment's operator
 * settings need it, and most provider processes never see one (its ~290 KB of modules cost tens of
 * milliseconds to load). Its users are synchronous (a validator, a semantic equality), so this is a
 * `require` rather than an `import()`. In the executables' bundles scripts/bundle.mjs gives this
 * module a plain `require("yaml")` that esbuild bundles and runs at the first call.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

export type YamlLibrary = typeof Yaml;

let loaded: YamlLibrary | undefined;

export function yamlLibrary(): YamlLibrary {
  loaded ??= createRequire(import.meta.url)('yaml') as YamlLibrary;
  return loaded;
}
