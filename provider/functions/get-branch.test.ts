/**
 * getBranch and getBranches against the emulator over HTTP, with pages of two branches: the whole list (a lookup that
 * read one page would miss the rest), a Branch's output names and nothing of the provider's own, a branch found by id
 * and by name alike, a missing id or name named with its project, a project that does not answer said, and bad
 * arguments refused before any request.
 */
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { BRANCH } from "../branch/declaration";
import { listBranches, lookUpBranch } from "./get-branch";
import { lookupFields } from "./lookup";

let emulator: Emulator;
let api: NeonClient;
let projectId: string;
const NEW = ["feature-a", "feature-b", "feature-c"];

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false, pageSize: 2 });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  projectId = emulator.projectId;
  for (const name of NEW) {
    const annotation_value = name === "feature-b" ? { owner: "team-b" } : undefined;
    await api.branches.create(projectId, { branch: { name }, annotation_value });
  }
});
afterAll(() => emulator.close());

const pathsSince = (mark: number) => emulator.requests.slice(mark).map((r) => `${r.method} ${r.path}`);

describe("getBranches", () => {
  it("reads every page of the list: six branches, three pages of two", async () => {
    const mark = emulator.requests.length;
    const { branches } = await listBranches(api, { projectId });
    // newest first: the service's order by creation time
    expect(branches.map((b) => b.name)).toEqual([...NEW].reverse().concat(["staging", "dev", "main"]));
    expect(pathsSince(mark)).toEqual(Array(3).fill(`GET /projects/${projectId}/branches`));
  });

  it("gives each branch a Branch's outputs, with its annotations, and none of the provider's records", async () => {
    const { branches } = await listBranches(api, { projectId });
    for (const branch of branches) {
      expect(Object.keys(branch).every((name) => lookupFields(BRANCH).includes(name))).toBe(true);
      expect(branch).not.toHaveProperty("resourceName");
      expect(branch).not.toHaveProperty("resetTriggers");
    }
    const main = branches.find((b) => b.name === "main")!;
    expect(main).toMatchObject({ projectId, default: true, protected: false, currentState: "ready" });
    expect(main.branchId).toMatch(/^br-/);
    expect(branches.find((b) => b.name === "feature-b")!.annotations).toEqual({ owner: "team-b" });
    expect(branches.find((b) => b.name === "feature-a")!.parentId).toBe(main.branchId);
  });
});

describe("getBranch", () => {
  it("finds a branch by id and by name, each as getBranches lists it", async () => {
    const { branches } = await listBranches(api, { projectId });
    const listed = branches.find((b) => b.name === "feature-b")!;
    expect(await lookUpBranch(api, { projectId, branchId: listed.branchId })).toEqual(listed);
    expect(await lookUpBranch(api, { projectId, name: "feature-b" })).toEqual(listed);
    // a branch without annotations: none by id either (the GET answers an empty one)
    const plain = branches.find((b) => b.name === "dev")!;
    expect(plain).not.toHaveProperty("annotations");
    expect(await lookUpBranch(api, { projectId, branchId: plain.branchId })).toEqual(plain);
  });

  it("finds by name a branch on the last page", async () => {
    expect((await lookUpBranch(api, { projectId, name: "main" })).default).toBe(true);
  });

  it("a name the project lacks is named, with the project and the names it has", async () => {
    await expect(lookUpBranch(api, { projectId, name: "nope" })).rejects.toThrow(
      `getBranch: project ${projectId} has no branch named "nope" (its list, read to the end, has 6: feature-c, ` +
        `feature-b, feature-a, staging, dev, main); check the name, or look the branch up by its branchId.`,
    );
  });

  it("an id the project lacks is named, with the project", async () => {
    const lookup = lookUpBranch(api, { projectId, branchId: "br-missing-1" });
    await expect(lookup).rejects.toThrow(`getBranch: project ${projectId} has no branch br-missing-1 (HTTP 404`);
    await expect(lookup).rejects.toThrow(/; check the branchId\.$/);
  });

  it("a project that does not answer is said, and that the key may not reach it", async () => {
    const lookup = lookUpBranch(api, { projectId: "no-such-project", branchId: "br-missing-1" });
    await expect(lookup).rejects.toThrow(/^getBranch: project no-such-project was not found \(HTTP 404/);
    await expect(lookup).rejects.toThrow("check the projectId, or neon:apiKey does not reach project no-such-project");
    const byName = lookUpBranch(api, { projectId: "no-such-project", name: "main" }, 'the apiKey of provider "other"');
    await expect(byName).rejects.toThrow('the apiKey of provider "other" does not reach project no-such-project');
  });

  it.each([
    [{ projectId: "p-1" }, "getBranch: branchId must be given, or name"],
    [{ projectId: "p-1", branchId: "br-a-1", name: "main" }, "getBranch: branchId must be left out when name is given"],
    [{ projectId: "p-1", branchId: "main" }, "getBranch: branchId must be a branch id"],
    [{ projectId: "p-1", name: "" }, "getBranch: name must be a branch's name"],
    [{ projectId: "P_1", name: "main" }, "getBranch: projectId must be a project id"],
  ])("refuses %j before any request", async (args, message) => {
    const mark = emulator.requests.length;
    await expect(lookUpBranch(api, args)).rejects.toThrow(message);
    await expect(listBranches(api, { projectId: "" })).rejects.toThrow("getBranches: projectId must be a project id");
    expect(emulator.requests.length).toBe(mark);
  });
});
