// The plugin protocol parsed from proto/*.proto with protobufjs reflection: the independent reading
// that tests hold the generated static messages (dist/packages/framework/src/server/tfplugin6-messages.js and
// go-plugin-messages.js) against.
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { PROTO_FILES } from '../../packages/framework/src/server/proto.js';
import { findProtoSourceDir } from '../../src/proto-location.js';

let root: protobuf.Root | undefined;

export function protoSourcesRoot(): protobuf.Root {
  if (root) return root;
  const dir = findProtoSourceDir('tfplugin6.proto', [process.cwd()]);
  if (!dir) throw new Error('no proto/ folder with tfplugin6.proto above the working directory');
  root = new protobuf.Root();
  root.loadSync(
    PROTO_FILES.map((f) => join(dir, f)),
    { keepCase: true },
  );
  root.resolveAll();
  return root;
}

/** Every message type of a namespace, nested ones included. */
export function allMessageTypes(namespace: protobuf.NamespaceBase = protoSourcesRoot()): protobuf.Type[] {
  return namespace.nestedArray.flatMap((nested) => {
    const own = nested instanceof protobuf.Type ? [nested] : [];
    return nested instanceof protobuf.Namespace || nested instanceof protobuf.Type
      ? [...own, ...allMessageTypes(nested)]
      : own;
  });
}

export function allServices(namespace: protobuf.NamespaceBase = protoSourcesRoot()): protobuf.Service[] {
  return namespace.nestedArray.flatMap((nested) => {
    if (nested instanceof protobuf.Service) return [nested];
    return nested instanceof protobuf.Namespace ? allServices(nested) : [];
  });
}
