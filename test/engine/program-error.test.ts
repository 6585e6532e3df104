/**
 * A program that fails, as the Node.js language host reports it: the command fails with the program's error, and
 * nothing escapes into the test's process.
 */
import * as pulumi from "@pulumi/pulumi";
import { spawnSync } from "child_process";
import * as path from "path";
import { recordedStack, Recorded, REPO_ROOT } from "./recorded";
import { Recorder } from "./recorder";
import { REFUSED } from "./refused-programs";

let recorded: Recorded;
afterEach(() => recorded?.cleanup());

describe("a program that fails (the language host: sdk/nodejs/cmd/run/run.ts)", () => {
  // The Node.js language host installs process handlers for the program's errors (run.ts: `process.on(
  // "unhandledRejection", …)` / `uncaughtException`, reported as the program's failure). A program that throws, e.g.
  // a missing required config value, must give a failed result and nothing else.
  it("a program that throws gives a failed result, and no error escapes into the test process", async () => {
    recorded = recordedStack(() => {
      const size = new pulumi.Config().require("size");
      return { size };
    });
    const up = await recorded.stack.up();
    expect(up.error?.message).toContain("size");
  });
});

/** The Pulumi CLI would run these programs; the local engine refuses them, loudly (testing/README.md). */
describe("a program using what the local engine does not model", () => {
  // Guards: the transforms option hung the command forever (the SDK's refusal left the resource's outputs unresolved,
  // and the engine waited for them), and every later command waited behind it; import, .get and invokeOutput failed
  // the command but their rejections also escaped into the test process (jest failed the test, plain Node exited 1).
  it.each(Object.keys(REFUSED))(
    "%s: the command fails at once naming it, nothing escapes, and the next command runs",
    async (name) => {
      recorded = recordedStack(REFUSED[name].program);
      // A hang (the bug) never settles: the test's timeout catches it, however busy the machine.
      const preview = await recorded.stack.preview();
      expect(preview.error?.message).toMatch(REFUSED[name].error);
      recorded.stack.program = () => new Recorder("plain", { value: "v" });
      const next = await recorded.stack.preview();
      expect(next.error).toBeUndefined();
      expect(next.steps.map((step) => `${step.op} ${step.name}`)).toContain("create plain");
    },
    300_000,
  );

  it("under plain Node too: the process exits 0 and prints nothing but the error", () => {
    const script = path.join(__dirname, "refused-programs.js");
    for (const name of [
      "the transforms option",
      "the import option",
      "a get by id",
      "invokeOutput",
      "resource hooks",
    ]) {
      const child = spawnSync(process.execPath, [script, name], { cwd: REPO_ROOT, encoding: "utf8", timeout: 30_000 });
      expect({ name, status: child.status, stderr: child.stderr }).toEqual({ name, status: 0, stderr: "" });
      expect(child.stdout.trim()).toMatch(REFUSED[name].error);
    }
  });

  it("an invoke's error reaches the program with its message, as the SDK reads a gRPC error", async () => {
    // Guard: the monitor answered a plain Error; the SDK shows a failed invoke's `details`, so the program saw "".
    let seen: string | undefined;
    recorded = recordedStack(async () => {
      await pulumi.runtime.invoke("x:y:z", {}).catch((error: Error) => (seen = error.message));
    });
    const preview = await recorded.stack.preview();
    expect(seen).toBe("provider functions (x:y:z) are not modelled by the local engine");
    expect(preview.error?.message).toBe(seen);
  });

  it("a method call's error reaches the program with its message too", async () => {
    let seen: string | undefined;
    recorded = recordedStack(async () => {
      const call = pulumi.runtime.call("x:y:z", {}) as pulumi.Output<unknown>;
      await (call as unknown as { promise(): Promise<unknown> })
        .promise()
        .catch((error: Error) => (seen = error.message));
    });
    const preview = await recorded.stack.preview();
    expect(seen).toBe("method calls (x:y:z) are not modelled by the local engine");
    expect(preview.error?.message).toBe(seen);
  });
});
