/**
 * Programs that use what the local engine does not model, each with what its failure must name. Shared by
 * program-error.test.ts and, run as a script (`node refused-programs.js <case>`), by its plain-Node check: there an
 * unhandled rejection would end the process with exit code 1, and a promise the SDK left pending would make it print
 * "N promises were still active" as it exits.
 */
import * as pulumi from "@pulumi/pulumi";
import { Program } from "../../testing";
import { recordedStack } from "./recorded";
import { Recorder } from "./recorder";

/* eslint-disable @typescript-eslint/no-explicit-any */
const runtime = pulumi.runtime as any;

export interface RefusedProgram {
  program: Program;
  /** What the command's error must say. */
  error: RegExp;
}

/** A provider resource of another package, declared explicitly. */
class OtherProvider extends pulumi.ProviderResource {
  constructor(name: string) {
    super("aws", name, {});
  }
}

const recorder = (name: string, opts: pulumi.CustomResourceOptions = {}) => new Recorder(name, { value: name }, opts);

export const REFUSED: Record<string, RefusedProgram> = {
  // Features the local engine tells the SDK it lacks: the SDK refuses them, the run fails at once.
  "the transforms option": {
    program: () => recorder("t", { transforms: [(args) => args] }),
    error: /^transforms \(the transforms resource option, .*\): not modelled by the local engine/,
  },
  registerResourceTransform: {
    program: () => {
      runtime.registerResourceTransform((args: unknown) => args);
      recorder("t");
    },
    error: /^transforms \(.*registerResourceTransform.*\): not modelled by the local engine/,
  },
  registerStackTransform: {
    program: () => {
      runtime.registerStackTransform((args: unknown) => args);
      recorder("t");
    },
    error: /^transforms \(.*registerStackTransform.*\): not modelled by the local engine/,
  },
  "resource hooks": {
    program: () => recorder("h", { hooks: { beforeCreate: [new pulumi.ResourceHook("h", () => undefined)] } }),
    error: /^resource hooks \(.*\): not modelled by the local engine/,
  },
  "the deletedWith option": {
    program: () => recorder("b", { deletedWith: recorder("a") }),
    error: /^the deletedWith resource option: not modelled by the local engine/,
  },
  "the replaceWith option": {
    program: () => recorder("b", { replaceWith: [recorder("a")] } as pulumi.CustomResourceOptions),
    error: /^the replaceWith resource option: not modelled by the local engine/,
  },
  // Requests the engine refuses itself: the deployment fails with an error on the resource.
  "the import option": {
    program: () => ({ imported: recorder("imp", { import: "some-id" }) }),
    error: /^imp: the import option is not modelled by the local engine/,
  },
  "a get by id": {
    program: () => ({ got: recorder("got", { id: "some-id" }) }),
    error:
      /^got: reading an existing resource \(pulumi-nodejs:dynamic\/test:Recorder .get, or the id option\) is not modelled/,
  },
  "an explicit provider resource": {
    program: () => recorder("r", { provider: new OtherProvider("p") }),
    error: /^p: explicit provider resources \(pulumi:providers:aws\) are not modelled by the local engine/,
  },
  invokeOutput: {
    program: () => ({ thing: runtime.invokeOutput("x:y:z", {}) }),
    error: /^provider functions \(x:y:z\) are not modelled by the local engine/,
  },
  "an invoke left unawaited": {
    program: () => {
      runtime.invoke("x:y:z", {});
      recorder("r");
    },
    error: /^provider functions \(x:y:z\) are not modelled by the local engine/,
  },
};

/** As a script: previews the named program, prints its error, and leaves Node to end the process. */
async function main(name: string): Promise<void> {
  const recorded = recordedStack(REFUSED[name].program);
  try {
    const preview = await recorded.stack.preview();
    process.stdout.write(`${preview.error?.message ?? "no error"}\n`);
  } finally {
    recorded.cleanup();
  }
}

if (require.main === module) void main(process.argv[2]);
