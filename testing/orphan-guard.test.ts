/**
 * Guards issue 23, item 9: plugin processes outlived the test run when the process that started them was killed (a
 * jest worker over its memory) or a test timed out in the middle of a command.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";

/** True while the process runs; a zombie (ended, not yet reaped by whoever adopted it) counts as ended. */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A process that starts a plugin as the local engine does, prints the plugin's pid, then waits forever. */
function parentOfAPlugin(): ChildProcess {
  const plugin = path.join(__dirname, "plugin.js");
  const script = `require(${JSON.stringify(plugin)}).Plugin.start({ cwd: process.cwd(), project: "guard" })
    .then((p) => console.log("plugin " + p.pid)); setInterval(() => {}, 1000);`;
  return spawn(process.execPath, ["-e", script], { cwd: path.resolve(__dirname, "..", ".."), stdio: "pipe" });
}

const started: number[] = [];
afterAll(() => {
  for (const pid of started) if (running(pid)) process.kill(pid, "SIGKILL"); // only when the guard failed
});

it("a plugin ends when the process that started it is killed outright (SIGKILL)", async () => {
  const parent = parentOfAPlugin();
  let out = "";
  parent.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await until(() => /plugin \d+/.test(out));
  const pid = Number(/plugin (\d+)/.exec(out)![1]);
  started.push(pid);
  expect(running(pid)).toBe(true);
  parent.kill("SIGKILL");
  await until(() => !running(pid)); // before the guard: it ran on, and the test timed out
  expect(running(pid)).toBe(false);
});
