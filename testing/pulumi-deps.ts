/**
 * The gRPC and protobuf packages the dynamic-provider plugin speaks, taken from where @pulumi/pulumi resolves them:
 * they are its dependencies, not this package's, and a user's install may not hoist them to the top.
 */
import * as path from "path";

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));

/** `require(id)` as @pulumi/pulumi would resolve it. */
export function requireFromPulumi<T = unknown>(id: string): T {
  return require(require.resolve(id, { paths: [pulumiDir] })) as T;
}
