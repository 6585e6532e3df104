import { PROGRESS_AFTER_MS, PROGRESS_EVERY_MS, reportProgress, seconds } from "./progress";
import { sleep } from "./cancellation";

/**
 * Issue 19: a `pulumi up` waiting minutes for a locked project or a slow operation said nothing and looked hung. A wait
 * says what it waits for once after a few seconds, then now and then: never a line per poll.
 */
describe("reportProgress", () => {
  it("reports first after `afterMs`, then every `everyMs`, asking for the line at each report", async () => {
    const reports: number[] = [];
    let thirdReport = () => {};
    const third = new Promise<void>((resolve) => (thirdReport = resolve));
    const say = (line: string) => reports.push(Number(line)) === 3 && thirdReport();
    const stop = reportProgress({ say, afterMs: 30, everyMs: 50 }, Date.now(), String);
    await sleep(5);
    expect(reports).toEqual([]);
    await third;
    stop();
    // Report i comes at or after its due time, afterMs + i × everyMs: late on a busy machine, never early.
    reports.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual(30 + i * 50 - 1));
    await sleep(80);
    expect(reports).toHaveLength(3); // stop() ends it
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
    let secondCall = () => {};
    const second = new Promise<void>((resolve) => (secondCall = resolve));
    const say = () => {
      calls += 1;
      if (calls === 2) secondCall();
      throw new Error("broken");
    };
    const stop = reportProgress({ say, afterMs: 5, everyMs: 10 }, Date.now(), () => "x");
    await second; // the sink threw the first time, and the reports went on
    stop();
    expect(calls).toBe(2);
  });

  it("defaults to a line after 5 s, then every 30 s; seconds read as a user reads them", () => {
    expect([PROGRESS_AFTER_MS, PROGRESS_EVERY_MS]).toEqual([5_000, 30_000]);
    expect([seconds(400), seconds(6_600), seconds(300_000)]).toEqual(["0 s", "7 s", "300 s"]);
  });
});
