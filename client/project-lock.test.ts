import { NeonError } from "./errors";
import { mutateProject, runExclusive } from "./project-lock";
import { Operation } from "./schemas";

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const op = (id: string): Operation => ({
  id,
  project_id: "p",
  action: "apply_config",
  status: "running",
  failures_count: 0,
  created_at: "",
  updated_at: "",
  total_duration_ms: 0,
});

describe("runExclusive", () => {
  it("runs the mutations of one project one at a time, in order", async () => {
    const events: string[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        runExclusive("a:p1", async () => {
          running += 1;
          most = Math.max(most, running);
          events.push(`start ${n}`);
          await tick();
          events.push(`end ${n}`);
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(events).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3", "start 4", "end 4"]);
  });
  it("lets different projects run in parallel", async () => {
    let running = 0;
    let most = 0;
    const job = async () => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    };
    await Promise.all([runExclusive("a:p1", job), runExclusive("a:p2", job)]);
    expect(most).toBe(2);
  });
  it("a failing mutation releases the lock", async () => {
    await expect(runExclusive("a:p3", async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    await expect(runExclusive("a:p3", async () => "next")).resolves.toBe("next");
  });
});

describe("mutateProject", () => {
  it("hands the project on at once: the next mutation is sent before the previous one's caller resumes", async () => {
    const events: string[] = [];
    const wait = async (operations: readonly Operation[]) => [...operations];
    const mutation = (name: string) =>
      mutateProject(
        "a:handover",
        wait,
        async () => {
          events.push(`${name} sent`);
          await tick(1);
          return { operations: [] };
        },
        () => name,
      ).then(() => events.push(`${name} returned`));
    await Promise.all([mutation("first"), mutation("second")]);
    // the project is busy again (the second request on its way) before the first step's result travels on
    expect(events).toEqual(["first sent", "second sent", "first returned", "second returned"]);
  });

  it("sends the next mutation only after the previous one's operations are done", async () => {
    const events: string[] = [];
    const wait = async (ops: readonly Operation[]) => {
      events.push(`wait ${ops.map((o) => o.id).join(",")}`);
      await tick();
      return ops.map((o) => ({ ...o, status: "finished" }));
    };
    const send = (n: number) => async () => {
      events.push(`send ${n}`);
      return { operations: [op(`op${n}`)] };
    };
    const results = await Promise.all([1, 2].map((n) => mutateProject("a:p4", wait, send(n), () => undefined)));
    expect(events).toEqual(["send 1", "wait op1", "send 2", "wait op2"]);
    expect(results[0].operations[0].status).toBe("finished");
  });
  it("an error while waiting carries the id of what was created, and leftovers are awaited first next time", async () => {
    const events: string[] = [];
    let fail = true;
    const wait = async (ops: readonly Operation[]) => {
      events.push(`wait ${ops.map((o) => o.id).join(",")}`);
      if (fail) {
        fail = false;
        throw new NeonError({ kind: "wait_timeout", message: "slow" });
      }
      return [...ops];
    };
    const first = mutateProject(
      "a:p5",
      wait,
      async () => ({ operations: [op("o1")], id: "ep-9" }),
      (r) => r.id,
    );
    await expect(first).rejects.toMatchObject({ kind: "wait_timeout", resourceId: "ep-9" });
    await mutateProject(
      "a:p5",
      wait,
      async () => ({ operations: [op("o2")] }),
      () => undefined,
    );
    expect(events).toEqual(["wait o1", "wait o1", "wait o2"]);
  });
});
