/**
 * What every dynamic resource class (`<resource>/resource.ts`) hands to `pulumi.dynamic.Resource`.
 *
 * The provider object is what Pulumi serializes into `__provider` and stores with every resource in state. It holds no
 * API logic, no client and no secret: each method loads the installed implementation by package name at call time
 * (the `impl` function a class passes, whose `require("pulumi-neon-dynamic/provider/<resource>/impl")` is serialized
 * as written), so the state stays small and old state runs new code (test/plugin/serialization, test/legacy).
 */
import type * as pulumi from "@pulumi/pulumi";
import { outputNames, secretOutputs, type Declaration } from "./declaration";

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a resource's impl.ts serves the engine; its delete is named for the resource (`deleteCompute`, …). */
export interface Lifecycle {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
}

/** The provider object of a class: each call loads `impl()` and runs its function of the same name. */
export function loadingProvider<M extends Lifecycle>(
  impl: () => M,
  deleteOf: (loaded: M) => (id: string, props: Props) => Promise<void>,
): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => impl().configure(req),
    check: (olds, news) => impl().check(olds, news),
    diff: (id, olds, news) => impl().diff(id, olds, news),
    create: (inputs) => impl().create(inputs),
    read: (id, props) => impl().read(id, props),
    update: (id, olds, news) => impl().update(id, olds, news),
    delete: (id, props) => deleteOf(impl())(id, props),
  };
}

/**
 * The properties a class constructs its resource with: every declared output as `undefined`, then the program's
 * inputs, then the class's own (`resourceName`, …). A dynamic resource exposes as an Output only the properties it was
 * constructed with (the runtime makes one Output per property it is given), so an output the class declares but the
 * program did not set would be `undefined` at run time, though typed `pulumi.Output<…>`. The runtime does not send
 * undefined properties, so the inputs the engine and the provider see, and the diffs, stay the same. The class
 * declares exactly the declaration's outputs: `npm run generate` writes them (class-of.ts).
 */
export function constructedWith(declaration: Declaration, args: object, own: Props = {}): Props {
  const everyOutput = Object.fromEntries(outputNames(declaration).map((name) => [name, undefined]));
  return { ...everyOutput, ...args, ...own };
}

/** The options with the declaration's secret outputs added to the program's, so the engine encrypts them in state. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  declaration: Declaration,
): pulumi.CustomResourceOptions {
  const secrets = secretOutputs(declaration);
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] };
}
