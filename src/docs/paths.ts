/**
 * Where each reference page goes under `docs/`, as the registry names its pages. The pages and the
 * sections that link to one another (a resource's identity to its list resource, a list resource to
 * its resource) find each other's paths here.
 */
import type { ProviderDef } from '../../packages/framework/src/engine/contracts/index.js';

type AnyProvider = ProviderDef<any, any>;

export interface DocPaths {
  index: string;
  resources: Map<string, string>;
  dataSources: Map<string, string>;
  ephemeralResources: Map<string, string>;
  listResources: Map<string, string>;
  actions: Map<string, string>;
  functions: Map<string, string>;
}

/**
 * Where each page goes: `<provider>/index.md`, `<provider>/resources/<name>.md`,
 * `<provider>/data-sources/<name>.md`, `<provider>/ephemeral-resources/<name>.md`,
 * `<provider>/list-resources/<name>.md`, `<provider>/actions/<name>.md` and
 * `<provider>/functions/<name>.md`, where `<name>` is the type without the provider prefix (a
 * function's own name), as the registry names its pages.
 */
export function docPaths(def: AnyProvider): DocPaths {
  const short = (typeName: string) =>
    typeName.startsWith(`${def.name}_`) ? typeName.slice(def.name.length + 1) : typeName;
  return {
    index: `${def.name}/index.md`,
    resources: new Map(def.resources.map((r) => [r.typeName, `${def.name}/resources/${short(r.typeName)}.md`])),
    dataSources: new Map(def.dataSources.map((d) => [d.typeName, `${def.name}/data-sources/${short(d.typeName)}.md`])),
    ephemeralResources: new Map(
      (def.ephemeralResources ?? []).map((e) => [
        e.typeName,
        `${def.name}/ephemeral-resources/${short(e.typeName)}.md`,
      ]),
    ),
    listResources: new Map(
      def.resources
        .filter((r) => r.list)
        .map((r) => [r.typeName, `${def.name}/list-resources/${short(r.typeName)}.md`]),
    ),
    actions: new Map((def.actions ?? []).map((a) => [a.typeName, `${def.name}/actions/${short(a.typeName)}.md`])),
    functions: new Map((def.functions ?? []).map((f) => [f.name, `${def.name}/functions/${f.name}.md`])),
  };
}
