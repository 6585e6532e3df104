/**
 * `npm run demo` with the real Pulumi CLI (the build of npm run pulumi:install): the same story as on the local
 * engine (test/demo), told by the CLI itself: the plan with no request, the up, the outputs with the key hidden, a
 * resize that the preview warns about and that is one PATCH, an up that sends nothing, destroy; and nothing left.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { cliRootOrThrow } from "./cli-world";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const SCRIPT = path.join(REPO_ROOT, "dist", "scripts", "demo.js");

function runDemo(cliRoot: string): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env, PULUMI_CLI_ROOT: cliRoot, NEON_API_KEY: "", NEON_API_HOST: "" };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], { cwd: REPO_ROOT, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("the demo through the real CLI tells the whole story and leaves nothing behind", async () => {
  const cliRoot = cliRootOrThrow();
  const { code, output } = await runDemo(cliRoot);
  expect(code).toBe(0);
  const story = [
    /^demo: the example primary-replica-key through the Pulumi CLI .*\/bin\/pulumi$/m,
    /^demo: \$ pulumi preview /m,
    /^ \+ +pulumi-nodejs:dynamic\/neon:Compute primary create/m,
    /^demo: requests sent: none$/m,
    /^demo: \$ pulumi up --yes --skip-preview/m,
    /^ {4}\+ 4 created$/m,
    /^demo: requests sent: 3 changes \(POST [^)]*\), \d+ reads$/m, // two computes and the key, in any order
    /"ciApiKey": "\[secret\]"/,
    /^demo: \$ pulumi preview --diff/m,
    /warning: Compute "primary" \(ep-[a-z0-9-]+\) will restart if it is running: autoscalingLimitMaxCu 2 -> 4/,
    /^demo: requests sent: none$/m,
    /^ {4}~ 1 updated$/m,
    /^demo: requests sent: 1 change \(PATCH \/projects\/[a-z0-9-]+\/endpoints\/ep-[a-z0-9-]+\), \d+ reads$/m,
    /^demo: \$ pulumi up --yes {3}\(again: nothing to do\)$/m,
    /^ {4}4 unchanged$/m,
    /^demo: requests sent: none$/m,
    /^ {4}- 4 deleted$/m,
    /^demo: done$/m,
  ];
  let from = 0;
  for (const step of story) {
    const at = output.slice(from).search(step);
    expect({ step: String(step), found: at >= 0 }).toEqual({ step: String(step), found: true });
    from += at + 1;
  }
  // No API key (the emulator's or the created one: 64 characters of [A-Za-z0-9_-]) is ever printed.
  expect(output).not.toMatch(/[A-Za-z0-9_-]{64}/);
  expect(fs.existsSync(path.join(REPO_ROOT, "examples", "primary-replica-key", "Pulumi.neon-demo.yaml"))).toBe(false);
});
