/**
 * `npm run example -- <name>` (scripts/example.ts): every example runs without the Pulumi CLI, through the local
 * engine against the emulator, with the steps its README gives, as a user runs it: a process of its own, the
 * environment without Neon settings, exit 0.
 *
 * Guards: an example that only the CLI could run (the demo ran one, the others needed `pulumi`); a README without the
 * command; a documented change that is not what the command does (no warning where a compute restarts, more than
 * one PATCH, a second `up` that sends a request); an example directory the command does not know.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { EXAMPLES } from "../../scripts/example";
import { REPO_ROOT } from "../plugin/world";
import { examplesOf } from "./runtimes";

const SCRIPT = path.join(REPO_ROOT, "dist", "scripts", "example.js");

function runExample(args: string[]): Promise<{ code: number | null; signal: string | null; output: string }> {
  const env = { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: REPO_ROOT, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 480_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/** Each pattern found in `output` after the previous one. */
function expectInOrder(output: string, story: RegExp[]): void {
  let from = 0;
  for (const step of story) {
    const at = output.slice(from).search(step);
    expect({ step: String(step), found: at >= 0, after: output.slice(from, from + 300) }).toEqual({
      step: String(step),
      found: true,
      after: expect.any(String),
    });
    from += at;
  }
}

const ID = "[a-z0-9-]+";

/** What each example's story must show: its resources (the stack counts as one) and each change's lines. */
const STORIES: Record<string, { resources: number; creates: number; changes: RegExp[][]; programReads?: true }> = {
  autoscaling: {
    resources: 2,
    creates: 1,
    changes: [
      [
        /^example: \$ pulumi config set maxCu 4 /m,
        /^ ~ neon:Compute +app +update \[diff: autoscalingLimitMaxCu\]$/m,
        /warning: Compute "app" \(ep-[a-z0-9-]+\) will restart if it is running: autoscalingLimitMaxCu 2 -> 4;/,
        /^Resources: 1 updated, 1 unchanged \(up: done\)$/m,
        new RegExp(
          `^example: requests sent: 1 change \\(PATCH /projects/${ID}/endpoints/ep-${ID}\\), \\d+ reads$`,
          "m",
        ),
      ],
    ],
  },
  "branch-move": {
    resources: 2,
    creates: 1,
    changes: [
      [
        /^example: \$ pulumi config set branchId br-[a-z0-9-]+ /m,
        /^ ~ neon:Compute +db +update \[diff: branchId\]$/m,
        /warning: Compute "db" \(ep-[a-z0-9-]+\) will restart if it is running: branchId;/,
        /^Resources: 1 updated, 1 unchanged \(up: done\)$/m,
        new RegExp(
          `^example: requests sent: 1 change \\(PATCH /projects/${ID}/endpoints/ep-${ID}\\), \\d+ reads$`,
          "m",
        ),
      ],
    ],
  },
  "pr-preview": {
    resources: 4,
    creates: 3,
    // The program reads the inherited role's password (getRolePasswordOutput) on each run once the branch exists.
    programReads: true,
    changes: [
      [
        /^example: \$ pulumi config set expiresAt \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /m,
        /^ ~ neon:Branch +preview +update \[diff: expiresAt\]$/m,
        /^Resources: 1 updated, 3 unchanged \(up: done\)$/m,
        new RegExp(
          `^example: requests sent: 1 change \\(PATCH /projects/${ID}/branches/br-${ID}\\), \\d+ reads?$`,
          "m",
        ),
      ],
    ],
  },
  "primary-replica-key": {
    resources: 4,
    creates: 3,
    changes: [
      [
        /^example: \$ pulumi config set primaryMaxCu 4 /m,
        /warning: Compute "primary" \(ep-[a-z0-9-]+\) will restart if it is running: autoscalingLimitMaxCu 2 -> 4;/,
        /^Resources: 1 updated, 3 unchanged \(up: done\)$/m,
        new RegExp(
          `^example: requests sent: 1 change \\(PATCH /projects/${ID}/endpoints/ep-${ID}\\), \\d+ reads$`,
          "m",
        ),
      ],
      [
        /^example: \$ pulumi config set ciKeyName ci-deploy-2 /m,
        /^Resources: 1 to replace, 3 unchanged \(preview: done\)$/m,
        /^Resources: 1 replaced, 3 unchanged \(up: done\)$/m,
        // The new key first, then the old one revoked; the key is limited to the project (an organization's key).
        new RegExp(
          `^example: requests sent: 2 changes \\(POST /organizations/${ID}/api_keys, DELETE /organizations/${ID}/api_keys/\\d+\\)`,
          "m",
        ),
      ],
    ],
  },
  "project-from-scratch": {
    resources: 11,
    creates: 9,
    changes: [
      [
        /^example: \$ pulumi config set devMaxCu 2 /m,
        /^ ~ neon:Compute +dev +update \[diff: autoscalingLimitMaxCu\]$/m,
        /warning: Compute "dev" \(ep-[a-z0-9-]+\) will restart if it is running: autoscalingLimitMaxCu 1 -> 2;/,
        /^Resources: 1 updated, 10 unchanged \(up: done\)$/m,
        new RegExp(
          `^example: requests sent: 1 change \\(PATCH /projects/${ID}/endpoints/ep-${ID}\\), \\d+ reads$`,
          "m",
        ),
      ],
    ],
  },
  "testing-your-program": {
    resources: 4,
    creates: 3,
    changes: [
      [
        /^example: \$ pulumi config set primaryCu 2 /m,
        /warning: Compute "primary" \(ep-[a-z0-9-]+\) will restart if it is running: autoscalingLimitMinCu 1 -> 2, autoscalingLimitMaxCu 1 -> 2;/,
        /^Resources: 1 updated, 3 unchanged \(up: done\)$/m,
        new RegExp(
          `^example: requests sent: 1 change \\(PATCH /projects/${ID}/endpoints/ep-${ID}\\), \\d+ reads$`,
          "m",
        ),
      ],
    ],
  },
};

/** Every TypeScript example (a YAML one needs the real CLI and the native plugin: test/cli/native-yaml.test.ts). */
const DIRECTORIES = examplesOf("nodejs");

describe("npm run example -- <name>: every example without the Pulumi CLI", () => {
  it("knows every example directory", () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(DIRECTORIES);
    expect(Object.keys(STORIES).sort()).toEqual(DIRECTORIES);
  });

  it.each(DIRECTORIES)("%s: its README shows the command and the change it makes", (name) => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "examples", name, "README.md"), "utf8");
    const heading = "## Run it without the Pulumi CLI";
    expect(readme).toContain(heading);
    const section = readme.slice(readme.indexOf(heading)).replace(/\s+/g, " ");
    expect(section).toContain(`npm run example -- ${name}`);
    for (const change of EXAMPLES[name].changes) {
      const shown = change.branch || typeof change.value === "function" ? "" : ` ${change.value}`;
      expect(section).toContain(`\`${change.key}\`${shown}`);
    }
  });

  it.each(DIRECTORIES)(
    "%s: up, the documented change (the preview's warning, the update's writes), an up with nothing to do, destroy",
    async (name) => {
      const { code, signal, output } = await runExample([name]);
      if (code !== 0 || signal !== null) {
        throw new Error(`npm run example -- ${name} ended with ${signal ?? `exit ${code}`}:\n${output.slice(-4000)}`);
      }
      const story = STORIES[name];
      expectInOrder(output, [
        new RegExp(`^example: ${name} on the local engine and the emulator, without the Pulumi CLI$`, "m"),
        /^example: \$ pulumi preview /m,
        new RegExp(`^Resources: ${story.resources} to create \\(preview: done\\)$`, "m"),
        /^example: requests sent: none$/m,
        new RegExp(`^Resources: ${story.resources} created \\(up: done\\)$`, "m"),
        new RegExp(`^example: requests sent: ${story.creates} changes? \\((POST [^,]+(, )?){${story.creates}}\\)`, "m"),
        ...story.changes.flatMap(([set, ...rest]) => [set, /^example: \$ pulumi preview --diff$/m, ...rest]),
        /^example: \$ pulumi up --yes {3}\(again: nothing to do\)$/m,
        new RegExp(`^Resources: ${story.resources} unchanged \\(up: done\\)$`, "m"),
        story.programReads ? /^example: requests sent: 0 changes, \d+ reads?$/m : /^example: requests sent: none$/m,
        /^example: \$ pulumi destroy /m,
        new RegExp(`^Resources: ${story.resources} deleted \\(destroy: done\\)$`, "m"),
        /^example: done$/m,
      ]);
      // The key of a secret output is shown hidden, never its value.
      expect(output).not.toMatch(/"[A-Za-z0-9_-]{64}"/);
    },
    600_000,
  );

  it("an unknown name lists the examples and exits 2", async () => {
    const { code, output } = await runExample(["no-such-example"]);
    expect(code).toBe(2);
    expect(output).toContain("no example named no-such-example");
    expect(output).toContain(`examples: ${Object.keys(EXAMPLES).join(", ")}`);
  });
});
