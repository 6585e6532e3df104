/**
 * Issue 23, item 11: a stack made against an emulator that was then started fresh. Its key and its projects belong to
 * a world that is gone: `refresh` said to rotate the key (twice, the second time with a stack trace), and `up` replaced
 * everything before failing. Both now say, once and in one line, that the emulator at that URL was started fresh and
 * what to do (docs/emulator.md, "Its world").
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Emulator, startEmulator } from "../../emulator";
import { CommandResult, LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, resizableReplica } from "./world";

const STARTED_FRESH = /^HTTP 401: the emulator at (http:\/\/127\.0\.0\.1:\d+\/api\/v2) was started fresh: .*/;
const WHAT_TO_DO = "remove its state with `pulumi stack rm --force` and run `pulumi up` again with the new key";

let world: NeonWorld;
let fresh: Emulator | undefined;
afterEach(async () => {
  await fresh?.close();
  await world.stop();
});

/** Everything the command printed: the engine's diagnostics (its error among them) and the plugin's stderr lines. */
const shown = (result: CommandResult) => result.diagnostics.map((d) => d.message).join("\n");

/**
 * A stack with one compute made against an emulator keeping its world in a state file, then that emulator restarted
 * on the same URL with --fresh. `resize` changes the program (so that an `up` has something to send).
 */
async function stackOfReplacedWorld(): Promise<{ stack: LocalStack; resize: (cu: number) => void }> {
  const stateFile = join(mkdtempSync(join(tmpdir(), "neon-world-")), "world.json");
  world = await neonWorld({ emulator: { stateFile } });
  const { program, resize } = resizableReplica(world);
  const stack = world.stack(program);
  ok(await stack.up({ skipPreview: true }));
  const port = Number(new URL(world.emulator.baseUrl).port);
  await world.emulator.close();
  fresh = await startEmulator({ stateFile, fresh: true, port, operationDurationMs: 20, rateLimit: false });
  return { stack, resize };
}

describe("an emulator restarted with --fresh", () => {
  it("refresh and up say, once and without a stack trace, that the emulator at <url> was started fresh", async () => {
    const { stack, resize } = await stackOfReplacedWorld();
    const refresh = await stack.refresh();
    resize(2);
    for (const result of [refresh, await stack.up()]) {
      const message = result.error?.message ?? "";
      expect(message).toMatch(STARTED_FRESH);
      expect(STARTED_FRESH.exec(message)?.[1]).toBe(world.emulator.baseUrl);
      expect(message).toContain(WHAT_TO_DO);
      expect(message).not.toMatch(/rotat|wrong, or it was revoked|\n/);
      const all = shown(result);
      expect(all.split("was started fresh").length - 1).toBe(1);
      expect(all).not.toMatch(/\n\s+at /);
    }
    expect(stack.exportState()).toContain("::db"); // nothing was dropped or replaced
  });

  it("with the fresh emulator's key, an up that changes a resource of the old world says so (404), dropping nothing", async () => {
    const { stack, resize } = await stackOfReplacedWorld();
    stack.setConfig({ "neon:apiKey": { secret: (fresh as Emulator).apiKey } });
    resize(2);
    const up = await stack.up();
    expect(up.error?.message).toMatch(/^HTTP 404: the emulator at \S+ was started fresh: /);
    expect(up.error?.message).toContain(WHAT_TO_DO);
    expect(stack.exportState()).toContain("::db"); // not dropped from the state as deleted
  });
});
