/**
 * getProject against the emulator over HTTP: the project's fields under the names a Project resource gives them, its
 * default branch's id (found on the branch list, read to the end), a project that does not answer said, and a bad id
 * refused before any request.
 */
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { lookUpProject, PROJECT_FIELDS } from "./get-project";

let emulator: Emulator;
let api: NeonClient;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false, pageSize: 2 });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
});
afterAll(() => emulator.close());

describe("getProject", () => {
  it("gives the project as the Project resource names its outputs: its default objects, no secret", async () => {
    const projectId = emulator.projectId;
    const project = await lookUpProject(api, { projectId });
    const listed = (await api.projects.listAll()).find((p) => p.id === projectId)!;
    const main = (await api.branches.list(projectId)).find((b) => b.default)!;
    const [compute] = await api.endpoints.listForBranch(projectId, main.id);
    const [database] = await api.databases.list(projectId, main.id);
    expect(project).toMatchObject({
      projectId,
      name: listed.name,
      regionId: listed.region_id,
      pgVersion: listed.pg_version,
      historyRetentionSeconds: expect.any(Number),
      storePasswords: true,
      defaultBranchId: main.id,
      defaultComputeId: compute.id,
      defaultComputeHost: compute.host,
      defaultDatabaseId: String(database.id),
      databaseName: database.name,
      roleName: database.owner_name,
      defaultRoleId: `${projectId}/${main.id}/${database.owner_name}`,
      branch: { name: main.name, roleName: database.owner_name, databaseName: database.name },
    });
    // No secret: the role's password is not revealed (getRolePassword reads one), so no connection string either.
    expect(Object.keys(project)).not.toEqual(expect.arrayContaining(["rolePassword"]));
    expect(emulator.requests.some((r) => r.path.endsWith("/reveal_password"))).toBe(false);
    expect(Object.keys(project).every((name) => name in PROJECT_FIELDS)).toBe(true);
    expect(Object.values(project)).not.toContain(null);
  });

  it("a project that does not answer is said, with what else Neon's 404 may mean", async () => {
    const lookup = lookUpProject(api, { projectId: "no-such-project" }, "NEON_API_KEY");
    await expect(lookup).rejects.toThrow(/^getProject: project no-such-project was not found \(HTTP 404/);
    await expect(lookup).rejects.toThrow("check the projectId, or NEON_API_KEY does not reach project no-such-project");
  });

  it("refuses a malformed projectId before any request", async () => {
    const mark = emulator.requests.length;
    await expect(lookUpProject(api, { projectId: "Not A Project" })).rejects.toThrow(
      'getProject: projectId must be a project id: 1 to 60 lowercase letters, digits and hyphens (got "Not A Project")',
    );
    expect(emulator.requests.length).toBe(mark);
  });
});
