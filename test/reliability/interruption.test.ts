/**
 * Interruption (issue 6, part 3): a `pulumi up` killed while the provider waits for a slow operation (each phase
 * 0.8 s), then the next `up`s, each case on a stack of its own. Mid-update the next `up` warns of the pending
 * update and converges with nothing duplicated; mid-create the pending create is kept and warned of, the compute
 * the killed attempt made is never taken: a replica leaves it as the one reported stray, a primary's next `up`
 * fails with the explained 409 and converges once the user deletes the compute it names (interruption.ts).
 */
import { PRIMARY_CREATE, REPLICA_CREATE, runInterruption, UPDATE_INTERRUPTIONS } from "./interruption";

describe("a pulumi up killed in the middle of a wait", () => {
  it.each(UPDATE_INTERRUPTIONS)(
    "during $label: the next up warns of the pending update and converges, nothing duplicated",
    async (c) => {
      expect(await runInterruption(c, "interrupt")).toEqual([]);
    },
  );

  it("during the create of a read replica: the pending create is warned of, a second compute is made, the stray is reported and untouched", async () => {
    expect(await runInterruption(REPLICA_CREATE, "interrupt")).toEqual([]);
  });

  it("during the create of a primary: the next up fails naming the stray and saying to delete it; after that it converges", async () => {
    expect(await runInterruption(PRIMARY_CREATE, "interrupt")).toEqual([]);
  });
});
