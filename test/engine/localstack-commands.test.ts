/**
 * What the local engine's own commands promise that the real Pulumi CLI cannot judge. The engine's rules are checked
 * against the CLI by the differential suite (test/cli/differential*.test.ts; testing/README.md, "How the model is
 * checked"); these stay here because the CLI engine does something else on purpose, or only by chance the same:
 * - `interrupt()` on the model is a killed CLI (pending operations left, warned of by the next `up`); on the CLI
 *   engine it is Ctrl-C, which lets the steps finish (test/cli/scenarios-interrupt.test.ts kills a real CLI);
 * - with one worker, no step starts after a failed one: on the CLI which registration reaches the step generator
 *   first is a race, so the two engines agree only when the CLI happens to take the SDK's order;
 * - a `--replace` name `LocalStack` cannot find in the state gives a failed result, not an exception.
 */
import { Recorder } from "./recorder";
import { RECORDER, recordedStack, Recorded } from "./recorded";

let recorded: Recorded;
afterEach(() => recorded?.cleanup());

const stateOf = (name: string) =>
  recorded.stack.state.resources.find((r) => r.type === RECORDER && r.urn.endsWith(`::${name}`));

it("interrupt(): an interrupted create is a pending operation; the next up warns and creates again", async () => {
  recorded = recordedStack(() => new Recorder("r", { value: "a", delayMs: 3000 }).out);
  const running = recorded.stack.up({ skipPreview: true });
  await until(() => recorded.callsOf("create").length > 0);
  await recorded.stack.interrupt();
  const interrupted = await running;
  expect(interrupted.interrupted).toBe(true);
  expect(recorded.stack.state.pendingOperations).toMatchObject([
    { type: "creating", resource: { urn: recorded.urn("r") } },
  ]);
  expect(stateOf("r")).toBeUndefined();
  const next = await recorded.stack.up({ skipPreview: true });
  expect(next.warnings.join("\n")).toContain(`${recorded.urn("r")}, interrupted while creating`);
  expect(next.steps.filter((s) => s.name === "r").map((s) => s.op)).toEqual(["create"]);
  // Pending creates need the user: snapshot.go carries them forward until a refresh (interactive) clears them.
  expect(recorded.stack.state.pendingOperations).toHaveLength(1);
});

it("with one worker, no step starts after a failed one, and the deletes do not run", async () => {
  let failing = false;
  recorded = recordedStack(
    () => {
      new Recorder("first", { value: failing ? "a2" : "a", fail: failing ? "error" : undefined });
      if (!failing) new Recorder("removed", { value: "x" });
      new Recorder("later", { value: failing ? "b2" : "b", delayMs: 200 });
    },
    { parallel: 1 },
  );
  await recorded.stack.up({ skipPreview: true });
  failing = true;
  const mark = recorded.mark();
  const up = await recorded.stack.up({ skipPreview: true });
  expect(up.error).toBeDefined();
  // `later` changed too, but with one worker it would run after `first`, which failed: it never starts.
  expect(recorded.callsOf("update", mark).map((c) => c.news.value)).toEqual(["a2"]);
  expect(recorded.callsOf("delete", mark)).toEqual([]);
  expect(stateOf("removed")).toBeDefined();
});

it("--replace of a name that is not in state gives a failed result (not an exception)", async () => {
  recorded = recordedStack(() => new Recorder("r", { value: "a" }).out);
  await recorded.stack.up({ skipPreview: true });
  const up = await recorded.stack.up({ replace: ["nope"], skipPreview: true }).catch((e: Error) => e);
  expect(up).not.toBeInstanceOf(Error);
  expect((up as { error?: Error }).error).toBeDefined();
});

/** Polls until `condition` holds: a bound on a hang, not a speed target (a busy machine's plugin start is slow). */
async function until(condition: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
