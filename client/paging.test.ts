/**
 * Lists read to the end, against an emulator whose paged routes answer small pages (`pageSize`): a client that reads
 * one page would take "not in that page" for "not there" (a branch delete that forgets a branch still on the
 * service), or would miss the operations it must wait for. Routes the document does not page are read once.
 */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { clientFor, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
beforeEach(async () => {
  emu = await start({ pageSize: 1 });
  client = clientFor(emu);
});
afterEach(() => emu.close());

const done = (ops: { status: string }[]) => ops.every((op) => ["finished", "skipped"].includes(op.status));

describe("branches.list follows pagination.next to the end", () => {
  it("lists every branch of a project whose branches fill several pages", async () => {
    await client.branches.create(emu.projectId, { branch: { name: "fourth" } });
    const names = (await client.branches.list(emu.projectId)).map((b) => b.name).sort();
    expect(names).toEqual(["dev", "fourth", "main", "staging"]);
  });
});

describe("the operations a recovered change waits for are read from every page", () => {
  it("a role create whose response is lost answers with the apply_config of each compute of the branch", async () => {
    await emu.close();
    // The service's time moves only when the test moves it, so the create's operations are still running when it is
    // recovered however slow the machine: the clock runs while the compute is made, then only once the client polls
    // the operations it found.
    emu = await start({ pageSize: 1, operationDurationMs: 1000, manualClock: true });
    client = clientFor(emu);
    const main = emu.branches.main;
    const running = (when: () => boolean) => setInterval(() => when() && emu.clock.advance(250), 5);
    const made = running(() => true);
    await client.endpoints
      .create(emu.projectId, { branch_id: main, type: "read_only" })
      .finally(() => clearInterval(made));
    // the first apply_config (the older, on the second page) fails once and is retried: it ends after the other
    emu.operations.failNext({ action: "apply_config", status: "failed", retries: 1 });
    emu.faults.add({ method: "POST", path: /\/roles$/, kind: "ambiguous", times: 1 });
    const polls = seen(emu, "GET", /\/operations\/[^/]+$/).length;
    const waited = running(() => seen(emu, "GET", /\/operations\/[^/]+$/).length > polls);
    const recover = () => client.roles.get(emu.projectId, main, "lost").catch(() => undefined);
    const { operations } = await client.roles
      .create(emu.projectId, main, { name: "lost" }, { recover })
      .finally(() => clearInterval(waited));
    expect(operations.map((op) => op.action)).toEqual(["apply_config", "apply_config"]);
    expect(done(operations)).toBe(true);
    expect(seen(emu, "POST", /\/roles$/)).toHaveLength(1);
  });
});
