import { Emulator, startEmulator } from "../../emulator";
import { NeonClient, NeonError } from "../../client";
import { createTarget, explainNotFound, updateTarget } from "./missing";
import { configure } from "../shared/runtime";

/**
 * Issue 19: a compute or branch deleted outside Pulumi gave a raw 404 with advice about keys. A 404 whose project still
 * answers is explained by what a read proves is missing; one whose project does not answer keeps its advice (hints.ts).
 */
let emulator: Emulator;
let api: NeonClient;
let branchId: string;
beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 5, rateLimit: false });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  configure({ get: (key) => ({ "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.baseUrl })[key] });
  branchId = emulator.branches.dev;
});
afterAll(async () => {
  configure(undefined);
  await emulator.close();
});

const notFound = (what: string) => new NeonError({ kind: "not_found", status: 404, message: `${what} not found` });

it("a compute deleted outside Pulumi: names it, says it no longer exists, and to refresh", async () => {
  const { endpoint } = await api.endpoints.create(emulator.projectId, { branch_id: branchId, type: "read_only" });
  await api.endpoints.delete(emulator.projectId, endpoint.id);
  const olds = { projectId: emulator.projectId, branchId, resourceName: "db" };
  const error = notFound("endpoint");
  const explained = (await explainNotFound(error, updateTarget(endpoint.id, olds, olds))) as Error;
  expect(explained.message).toBe(
    `Compute "db" (${endpoint.id}) no longer exists in project ${emulator.projectId}: it was deleted outside Pulumi ` +
      "(HTTP 404: endpoint not found). Run `pulumi refresh` to remove it from the state, then `pulumi up` creates it " +
      "again, or run both at once with `pulumi up --refresh` (docs/resources.md#compute).",
  );
  expect(explained.cause).toBe(error);
});

it("a branch deleted outside Pulumi: a create names it", async () => {
  const inputs = { projectId: emulator.projectId, branchId: "br-gone-12345678", resourceName: "replica" };
  const explained = (await explainNotFound(notFound("branch"), createTarget(inputs))) as Error;
  expect(explained.message).toMatch(
    new RegExp(
      `^Compute "replica" cannot be created on branch br-gone-12345678: project ${emulator.projectId} has no such ` +
        "branch \\(it may have been deleted outside Pulumi\\) \\(HTTP 404: branch not found\\)\\. Set the Compute's " +
        "branchId to a branch",
    ),
  );
});

it("a move to a branch that is gone names the branch and the compute", async () => {
  const { endpoint } = await api.endpoints.create(emulator.projectId, { branch_id: branchId, type: "read_only" });
  const olds = { projectId: emulator.projectId, branchId, resourceName: "db" };
  const news = { ...olds, branchId: "br-gone-12345678" };
  const explained = (await explainNotFound(notFound("branch"), updateTarget(endpoint.id, olds, news))) as Error;
  expect(explained.message).toMatch(
    new RegExp(`^Compute "db" \\(${endpoint.id}\\) cannot be moved to branch br-gone-12345678: project`),
  );
  await api.endpoints.delete(emulator.projectId, endpoint.id);
});

it("an update whose project does not answer either: says nothing can be concluded, and nothing was changed", async () => {
  const olds = { projectId: "no-such-project", branchId, resourceName: "db" };
  const explained = (await explainNotFound(notFound("endpoint"), updateTarget("ep-x", olds, olds))) as Error;
  expect(explained.message).toMatch(
    /^Compute "db" \(ep-x\) was not found, and neither was its project no-such-project, .*Nothing was changed/,
  );
});

it("leaves the 404 as it is when a create's project does not answer (the key's reach), or nothing is proven missing", async () => {
  const error = notFound("project");
  expect(await explainNotFound(error, createTarget({ projectId: "no-such-project", branchId }))).toBe(error);
  const unnamed = new NeonError({ kind: "not_found", status: 404, message: "not found" });
  expect(await explainNotFound(unnamed, createTarget({ projectId: "no-such-project", branchId }))).toBe(unnamed);
  const there = createTarget({ projectId: emulator.projectId, branchId });
  expect(await explainNotFound(error, there)).toBe(error);
  const other = new NeonError({ kind: "validation", status: 400, message: "no" });
  expect(await explainNotFound(other, there)).toBe(other);
});
