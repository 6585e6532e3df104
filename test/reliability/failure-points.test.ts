/**
 * Failure at every point (issue 6, part 2), seeded CI version: every operation of Compute and ApiKey, each
 * with a fault before sending, after sending (response lost), a failed operation and a wait that times out;
 * after the next `up` the engine's state and the service agree and the first error names what happened.
 */
import { applies, operationCases, POINTS, pointProblems, runPoint } from "./failure-points";
import { Rig } from "./rig";

const TAG = "points";
let rig: Rig;

beforeAll(async () => {
  rig = await Rig.start({ projects: 1, waitTimeoutSeconds: 1 });
});
afterAll(() => rig?.stop());

const cases = operationCases(TAG).flatMap((operation) =>
  POINTS.filter((point) => applies(operation, point)).map((point) => ({
    operation,
    point,
    label: `${operation.name}, ${point}`,
  })),
);

describe("a failure at every point of every operation", () => {
  it.each(cases)("$label: the next up converges and state agrees with the service", async ({ operation, point }) => {
    const result = await runPoint(rig, operation, point, TAG);
    const problems = pointProblems(result, point);
    if (problems.length > 0)
      throw new Error(
        `${problems.join("\n")}\nwrites:\n${result.writes.join("\n")}\nerrors:\n${result.errors.map((e) => e.message).join("\n")}`,
      );
  });
});
