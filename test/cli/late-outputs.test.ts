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

/**
 * A failed `up` of a program whose stack outputs resolve LATE_MS after it starts, through `then`; resolves once those
 * outputs have been handed to the SDK (whose call then meets the closed monitor), and a moment after.
 */
async function failedUpWithLateOutputs(then: (value: string) => pulumi.Input<unknown>): Promise<void> {
  let handed: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (handed = resolve));
  stack = new CliStack({
    cliRoot: cliRootOrThrow(),
    cwd: REPO_ROOT,
    program: () => {
      rec("broken", { value: "a", fail: "error" });
      const late = new Promise<string>((resolve) => setTimeout(() => resolve("late"), LATE_MS));
      return {
        late: pulumi
          .output(late)
          .apply(then)
          .apply((value) => {
            handed();
            return value;
          }),
      };
    },
  });
  const result = await stack.up({ skipPreview: true });
  expect(result.error?.message).toMatch(/broken/);
  // The outputs are sent while this test still runs: an unhandled rejection would fail it.
  await sent;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

it("a failed up whose stack outputs arrive after the engine stopped leaves the test run alone", async () => {
  await failedUpWithLateOutputs((value) => value);
});

it("a failed up whose stack outputs wait on an invoke sent after the engine stopped leaves the test run alone", async () => {
  await failedUpWithLateOutputs(() => pulumi.runtime.invoke("neon:index:getProjects", {}));
});
