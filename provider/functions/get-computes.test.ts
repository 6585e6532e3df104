/**
 * getComputes against the emulator over HTTP: a project's computes or a branch's, each with a Compute's outputs (the
 * pooled host and max_connections too) and none of the provider's records, a branch the project lacks named, and bad
 * arguments refused before any request.
 */
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { COMPUTE } from "../compute/declaration";
import { listComputes } from "./get-computes";
import { lookupFields } from "./lookup";

let emulator: Emulator;
let api: NeonClient;
let projectId: string;
let branches: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false, pageSize: 2 });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  projectId = emulator.projectId;
  branches = Object.fromEntries((await api.branches.list(projectId)).map((b) => [b.name, b.id]));
  await api.endpoints.create(projectId, { endpoint: { branch_id: branches.dev, type: "read_write" } });
});
afterAll(() => emulator.close());

describe("getComputes", () => {
  it("lists the project's computes, each with a Compute's outputs and none of the provider's records", async () => {
    const { computes } = await listComputes(api, { projectId });
    expect(computes.map((c) => c.branchId).sort()).toEqual([branches.main, branches.dev].sort());
    for (const compute of computes) {
      expect(Object.keys(compute).every((name) => lookupFields(COMPUTE).includes(name))).toBe(true);
      expect(compute).toMatchObject({ projectId, type: "read_write", pgSettings: expect.any(Object) });
      expect(compute.poolerHost).toBe(compute.host.replace(compute.endpointId, `${compute.endpointId}-pooler`));
      expect(compute.maxConnections).toBeGreaterThan(0);
      for (const own of ["resourceName", "ownerTag", "adoptId", "restartTriggers"])
        expect(compute).not.toHaveProperty(own);
    }
  });

  it("lists one branch's computes; a branch without any gives none", async () => {
    expect((await listComputes(api, { projectId, branchId: branches.dev })).computes).toHaveLength(1);
    expect((await listComputes(api, { projectId, branchId: branches.staging })).computes).toEqual([]);
  });

  it("a branch the project lacks is named, with the project", async () => {
    await expect(listComputes(api, { projectId, branchId: "br-missing-1" })).rejects.toThrow(
      `getComputes: project ${projectId} has no branch br-missing-1 (HTTP 404`,
    );
  });

  it("refuses a malformed projectId or branchId before any request", async () => {
    const mark = emulator.requests.length;
    await expect(listComputes(api, { projectId, branchId: "dev" })).rejects.toThrow(
      "getComputes: branchId must be a branch id: 'br-' then 1 to 60 lowercase letters, digits and hyphens, or left out",
    );
    await expect(listComputes(api, { projectId: "" })).rejects.toThrow("getComputes: projectId must be a project id");
    expect(emulator.requests.length).toBe(mark);
  });
});
