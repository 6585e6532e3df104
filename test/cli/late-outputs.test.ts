/**
 * A failed `up` of an inline program (testing's CliStack, the Automation API) whose stack outputs are still being
 * resolved when the engine ends the run: the program sends its outputs after the engine's resource monitor has gone.
 * @pulumi/pulumi v3.248.0 rejects that call in a promise nobody holds (runtime/resource.ts runAsyncResourceOp) after
 * its language server has stopped catching the program's errors, so the rejection ended the jest run that drove the
 * command ("Test suite failed to run: Resource monitor is terminating", differential-lifecycle under load). The same
 * holds for an invoke the outputs wait on, sent after the engine stopped.
 */
import * as pulumi from "@pulumi/pulumi";
import { CliStack } from "../../testing";
import { REPO_ROOT } from "../plugin/world";
import { rec } from "./differential-rules";
import { cliRootOrThrow } from "./cli-world";

const LATE_MS = 4_000;

let stack: CliStack | undefined;
afterEach(async () => {
  await stack?.dispose();
  stack = undefined;
});

it("a failed up whose stack outputs arrive after the engine stopped leaves the test run alone", async () => {
  stack = new CliStack({
    cliRoot: cliRootOrThrow(),
    cwd: REPO_ROOT,
    program: () => {
      rec("broken", { value: "a", fail: "error" });
      const late = new Promise<string>((resolve) => setTimeout(() => resolve("late"), LATE_MS));
      return { late: pulumi.output(late) };
    },
  });
  const result = await stack.up({ skipPreview: true });
  expect(result.error?.message).toMatch(/broken/);
  // The outputs are sent while this test still runs: an unhandled rejection would fail it.
  await new Promise((resolve) => setTimeout(resolve, LATE_MS + 2_000));
});

it("a failed up whose stack outputs wait on an invoke sent after the engine stopped leaves the test run alone", async () => {
  stack = new CliStack({
    cliRoot: cliRootOrThrow(),
    cwd: REPO_ROOT,
    program: () => {
      rec("broken", { value: "a", fail: "error" });
      const late = new Promise<string>((resolve) => setTimeout(() => resolve("late"), LATE_MS));
      return { late: pulumi.output(late).apply(() => pulumi.runtime.invoke("neon:index:getProjects", {})) };
    },
  });
  const result = await stack.up({ skipPreview: true });
  expect(result.error?.message).toMatch(/broken/);
  await new Promise((resolve) => setTimeout(resolve, LATE_MS + 2_000));
});
