/**
 * A program that fails, as the Node.js language host reports it: the command fails with the program's error, and
 * nothing escapes into the test's process.
 */
import * as pulumi from "@pulumi/pulumi";
import { recordedStack, Recorded } from "./recorded";

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
