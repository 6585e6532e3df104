/**
 * Failure at every point (issue 6, part 2), CI version, Compute operations (the ApiKey ones are in a file of their own,
 * so that jest runs the two halves in parallel): each operation with a fault before sending, after sending (response
 * lost) and, where the service starts an operation, a failed operation and a wait that times out, each on a rig of
 * its own. After the next `up` the stack's state and the service agree; nothing is duplicated, orphaned or taken
 * from a bystander; a lost create is found by its attempt's name; the first error names what happened; no key is in
 * plain text (failure-points.ts).
 */
import { expectPointPasses, pointCases } from "./failure-points";

const TAG = "points";

describe("a failure at every point of every Compute operation", () => {
  it.each(pointCases(TAG, "Compute"))(
    "$label: the next up converges and state agrees with the service",
    ({ operation, point }) => expectPointPasses(operation, point, TAG),
  );
});
