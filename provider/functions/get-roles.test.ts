/**
 * getRoles and getDatabases against the emulator over HTTP: a branch's roles (a Role's outputs without the password)
 * and databases (a Database's outputs), a branch the project lacks named, a project that does not answer said, and bad
 * arguments refused before any request.
 */
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { DATABASE } from "../database/declaration";
import { ROLE } from "../role/declaration";
import { listDatabases } from "./get-databases";
import { listRoles } from "./get-roles";
import { lookupFields } from "./lookup";

let emulator: Emulator;
let api: NeonClient;
let projectId: string;
let main: string;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false, pageSize: 2 });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  projectId = emulator.projectId;
  main = (await api.branches.list(projectId)).find((b) => b.default)!.id;
  await api.roles.create(projectId, main, { name: "reporter", no_login: true });
  await api.databases.create(projectId, main, { name: "reports", owner_name: "reporter" });
});
afterAll(() => emulator.close());

describe("getRoles", () => {
  it("lists the branch's roles with a Role's outputs, without passwords", async () => {
    const { roles } = await listRoles(api, { projectId, branchId: main });
    expect(roles.map((r) => r.name)).toEqual(["neondb_owner", "reporter"]);
    expect(roles[1]).toMatchObject({ projectId, branchId: main, name: "reporter", noLogin: true });
    expect(roles[0].noLogin).toBe(false);
    for (const role of roles) {
      expect(Object.keys(role).every((name) => lookupFields(ROLE).includes(name))).toBe(true);
      expect(role).not.toHaveProperty("password");
    }
  });

  it("a branch the project lacks, and a project that does not answer, are named", async () => {
    await expect(listRoles(api, { projectId, branchId: "br-missing-1" })).rejects.toThrow(
      `getRoles: project ${projectId} has no branch br-missing-1 (HTTP 404`,
    );
    await expect(listRoles(api, { projectId: "no-such-project", branchId: main })).rejects.toThrow(
      /^getRoles: project no-such-project was not found \(HTTP 404.*neon:apiKey does not reach project no-such-project/,
    );
  });

  it("refuses a missing branchId before any request", async () => {
    const mark = emulator.requests.length;
    await expect(listRoles(api, { projectId } as never)).rejects.toThrow(
      "getRoles: branchId must be a branch id: 'br-' then 1 to 60 lowercase letters, digits and hyphens (got undefined)",
    );
    expect(emulator.requests.length).toBe(mark);
  });
});

describe("getDatabases", () => {
  it("lists the branch's databases with a Database's outputs", async () => {
    const { databases } = await listDatabases(api, { projectId, branchId: main });
    expect(databases.map((d) => [d.name, d.ownerName])).toEqual([
      ["neondb", "neondb_owner"],
      ["reports", "reporter"],
    ]);
    expect(databases[1]).toMatchObject({ projectId, branchId: main, databaseId: expect.any(Number) });
    expect(Object.keys(databases[1]).sort()).toEqual([...lookupFields(DATABASE)].sort());
  });

  it("a branch the project lacks is named; bad arguments are refused before any request", async () => {
    await expect(listDatabases(api, { projectId, branchId: "br-missing-1" })).rejects.toThrow(
      `getDatabases: project ${projectId} has no branch br-missing-1 (HTTP 404`,
    );
    const mark = emulator.requests.length;
    await expect(listDatabases(api, { projectId: "x_y", branchId: main })).rejects.toThrow(
      "getDatabases: projectId must be a project id",
    );
    expect(emulator.requests.length).toBe(mark);
  });
});
