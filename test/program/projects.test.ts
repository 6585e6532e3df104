/**
 * getProjects runs in the program: every project across all pages (the peers read one page), filtered by
 * search, with credentials from the neon: config namespace.
 */
import * as pulumi from "@pulumi/pulumi";
import { Emulator, startEmulator } from "../../emulator";
import { getProjects, getProjectsOutput } from "../../provider";

let emulator: Emulator;
const PROJECTS = 405; // more than one page of 400

beforeAll(async () => {
  const projects = Array.from({ length: PROJECTS }, (_, i) => ({
    name: i % 100 === 7 ? `analytics-${i}` : `app-${i}`,
  }));
  emulator = await startEmulator({ rateLimit: false, fixture: { accounts: [{ projects }] } });
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: args.name, state: args.inputs }), call: () => ({}) });
  pulumi.runtime.setConfig("neon:apiKey", emulator.apiKey);
  pulumi.runtime.setConfig("neon:apiUrl", emulator.baseUrl);
});
afterAll(() => emulator.close());

describe("getProjects", () => {
  it("walks every page", async () => {
    const mark = emulator.requests.length;
    const { projects } = await getProjects();
    expect(projects).toHaveLength(PROJECTS);
    expect(new Set(projects.map((p) => p.id)).size).toBe(PROJECTS);
    expect(emulator.requests.slice(mark).map((r) => r.path)).toEqual(["/projects", "/projects"]);
    expect(projects[0]).toMatchObject({
      id: expect.any(String),
      regionId: expect.any(String),
      pgVersion: expect.any(Number),
    });
  });

  it("passes the search on to the service", async () => {
    const { projects } = await getProjects({ search: "analytics" });
    expect(projects.map((p) => p.name).sort()).toEqual([
      "analytics-107",
      "analytics-207",
      "analytics-307",
      "analytics-7",
    ]);
  });

  it("has an Output form for inputs that are Outputs", async () => {
    const names = await new Promise<string[]>((resolve) =>
      getProjectsOutput({ search: pulumi.output("analytics-30") }).apply((r) => resolve(r.projects.map((p) => p.name))),
    );
    expect(names).toEqual(["analytics-307"]);
  });
});
