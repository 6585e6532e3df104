/**
 * Load (issue 6, part 6): 50 changes across 10 projects at once through one plugin process, rate limit on
 * (the emulator's default 700/min, 40/s per route): all succeed, no deadlock, no 429 left unretried.
 */
import { runLoad } from "./load";

it("50 changes across 10 projects through one plugin: all succeed within the rate limit", async () => {
  const figures = await runLoad(10, 5, 600_000); // a bound on a deadlock; the speed is npm run test:soak's figure
  expect(figures.errors).toEqual([]);
  expect(figures.changes).toBe(50);
  expect(figures.converged).toBe(true);
  // 429s, if any, were retried: every change succeeded above. Report them in the figures.
}, 1_300_000);
