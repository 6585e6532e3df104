import { Emulator, startEmulator } from "../../emulator";
import { NeonClient, NeonError } from "../../client";
import { createTarget, explainNotFound, poolerRefusal, updateTarget } from "./refusal";
import { configure } from "../shared/runtime";

const refused = (message: string, status = 400) =>
  new NeonError({ kind: "validation", message, status, method: "PATCH", path: "/projects/p/endpoints/ep-1" });

describe("poolerRefusal: a refused request that carried the deprecated pooler fields", () => {
  const sent = { branch_id: "br-b-1", type: "read_write", pooler_enabled: true, pooler_mode: "transaction" };

  it("keeps the service's message first and says to remove the inputs, whatever the wording mentioning pooler", () => {
    for (const message of [
      "endpoint.pooler_enabled: not accepted",
      "unknown field 'pooler_mode'",
      "Pooler settings are gone",
    ]) {
      const error = poolerRefusal(refused(message), sent);
      expect(error?.message.startsWith(`HTTP 400: ${message}`)).toBe(true);
      expect(error?.message).toContain("remove poolerEnabled and poolerMode from the program");
      expect(error?.message).toContain("poolerHost");
      expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(NeonError);
    }
  });

  it("names only the inputs the program set", () => {
    const error = poolerRefusal(refused("pooler_mode is not accepted"), { pooler_mode: "transaction" });
    expect(error?.message).toContain("remove poolerMode from the program");
    expect(error?.message).not.toContain("poolerEnabled");
  });

  it("says it conditionally when the message names nothing it can tell", () => {
    const error = poolerRefusal(refused("invalid request body"), sent);
    expect(error?.message).toMatch(/^HTTP 400: invalid request body.*; if the refusal is about them, remove/);
  });

  it("stays out of refusals about another field, of requests without pooler fields, and of other errors", () => {
    const plan = refused("endpoint.autoscaling_limit_max_cu: 4 exceeds the Free plan's limit of 2 CU");
    expect(poolerRefusal(plan, { ...sent, autoscaling_limit_max_cu: 4 })).toBeUndefined();
    expect(poolerRefusal(refused("pooler is gone"), { branch_id: "br-b-1" })).toBeUndefined();
    const conflict = new NeonError({ kind: "conflict", message: "pooler", status: 409 });
    expect(poolerRefusal(conflict, sent)).toBeUndefined();
  });
});

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
