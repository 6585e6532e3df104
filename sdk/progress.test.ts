import { PROGRESS_AFTER_MS, PROGRESS_EVERY_MS, reportProgress, seconds } from "./progress";
import { sleep } from "./retry";

/**
 * Issue 19: a `pulumi up` waiting minutes for a locked project or a slow operation said nothing and looked hung. A wait
 * says what it waits for once after a few seconds, then now and then: never a line per poll.
 */
describe("reportProgress", () => {
  it("reports first after `afterMs`, then every `everyMs`, asking for the line at each report", async () => {
    const lines: string[] = [];
    const started = Date.now();
    const stop = reportProgress({ say: (line) => lines.push(line), afterMs: 30, everyMs: 50 }, started, (ms) =>
      String(ms),
    );
    await sleep(20);
    expect(lines).toEqual([]);
    await sleep(150);
    stop();
    const count = lines.length;
    expect(count).toBeGreaterThanOrEqual(2); // at ~30, ~80, ~130 ms (timers on a shared machine may slip)
    expect(count).toBeLessThanOrEqual(4);
    expect(Number(lines[0])).toBeGreaterThanOrEqual(29);
    await sleep(80);
    expect(lines.length).toBe(count);
  });

  it("counts from the wait's start: a wait already older than `afterMs` reports at once", async () => {
    const lines: string[] = [];
    const stop = reportProgress({ say: (line) => lines.push(line), afterMs: 50 }, Date.now() - 200, (ms) => `${ms}`);
    await sleep(20);
    stop();
    expect(lines.length).toBe(1);
    expect(Number(lines[0])).toBeGreaterThanOrEqual(200);
  });

  it("without a sink does nothing; a sink that throws breaks nothing", async () => {
    reportProgress(undefined, Date.now(), () => "x")();
    let calls = 0;
    const stop = reportProgress(
      {
        say: () => {
          calls += 1;
          throw new Error("broken");
        },
        afterMs: 5,
        everyMs: 10,
      },
      Date.now(),
      () => "x",
    );
    await sleep(40);
    stop();
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it("defaults to a line after 5 s, then every 30 s; seconds read as a user reads them", () => {
    expect([PROGRESS_AFTER_MS, PROGRESS_EVERY_MS]).toEqual([5_000, 30_000]);
    expect([seconds(400), seconds(6_600), seconds(300_000)]).toEqual(["0 s", "7 s", "300 s"]);
  });
});
