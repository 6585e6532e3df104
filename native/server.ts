/**
 * `pulumirpc.ResourceProvider`, served with @grpc/grpc-js and the stubs @pulumi/pulumi ships, as the dynamic
 * provider's own server does (@pulumi/pulumi cmd/dynamic-provider). Not `@pulumi/pulumi`'s `provider.main`: at
 * v3.248.0 its Configure drops an explicit provider's arguments and its Diff sends no detailed diff
 * (../shared/reference, native-provider.md).
 *
 * Each RPC of a resource runs inside `inCall` (engine-log.ts), so that its warnings reach the engine as warnings of
 * that resource; Invoke serves the package's functions (functions.ts). RPCs not listed (Construct, Call, Handshake,
 * …) answer UNIMPLEMENTED (grpc-js's default), and the engine says which call failed.
 */
import * as fs from "fs";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { IResourceProviderServer, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import {
  CheckResponse,
  ConfigureResponse,
  GetSchemaResponse,
  InvokeRequest,
  InvokeResponse,
} from "@pulumi/pulumi/proto/provider_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { configure } from "./configure";
import { inCall } from "./engine-log";
import { Answered, statusOf, unimplemented } from "./errors";
import { invoke } from "./functions";
import * as calls from "./lifecycle-calls";

/** The package's root: dist/native/ → the repository, or the installed package. */
export const PACKAGE_ROOT = path.resolve(__dirname, "..", "..");

/** A unary RPC whose work runs as a call of the request's resource (its URN, if it has one). */
function unary<Q extends object, R>(work: (request: Q) => Promise<R> | R): grpc.handleUnaryCall<Q, R> {
  return (call, callback) => {
    const urn = "getUrn" in call.request ? String((call.request as { getUrn(): string }).getUrn()) : "";
    inCall(urn, async () => work(call.request)).then(
      (response) => callback(null, response),
      (error: unknown) => callback(statusOf(error), null),
    );
  };
}

/** The package's version: the plugin's, as GetPluginInfo and `--version` give it. */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The service's handlers. */
export function providerService(): Partial<IResourceProviderServer> {
  const version = packageVersion();
  return {
    getPluginInfo: unary(() => new PluginInfo().setVersion(version)),
    getSchema: unary(() =>
      new GetSchemaResponse().setSchema(fs.readFileSync(path.join(PACKAGE_ROOT, "schema.json"), "utf8")),
    ),
    // The provider's own inputs are the configuration: nothing to check beyond what Configure reads.
    checkConfig: unary((request) => new CheckResponse().setInputs(request.getNews())),
    // UNIMPLEMENTED: the engine compares the old and new configuration itself and never replaces resources for it
    // (a new key or URL updates the provider; pulumi/pulumi step_generator.go, providerChanged).
    diffConfig: unary(() => {
      throw new Answered(unimplemented("DiffConfig is not implemented by the neon plugin"));
    }),
    configure: unary((request) => {
      configure(request);
      // Previews of Create and Update, computed without a request (preview.ts): without them the engine takes an
      // update's inputs for its outputs, and an output no input sets turns unknown in every dependent's diff.
      return new ConfigureResponse().setAcceptsecrets(true).setAcceptresources(true).setSupportspreview(true);
    }),
    invoke: unary<InvokeRequest, InvokeResponse>(invoke),
    check: unary(calls.check),
    diff: unary(calls.diff),
    create: unary(calls.create),
    read: unary(calls.read),
    update: unary(calls.update),
    delete: unary(calls.deleteResource),
    cancel: unary(() => new Empty()),
  };
}

/** Serves the provider on 127.0.0.1 at a free port; resolves to the port. */
export async function serve(): Promise<{ port: number; server: grpc.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  server.addService(ResourceProviderService, providerService() as IResourceProviderServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { port, server };
}
