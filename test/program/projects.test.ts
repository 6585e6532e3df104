/**
 * getProjects runs in the program: every project across all pages (the peers read one page), filtered by
 * search, with credentials from the neon: config namespace.
 */
import * as pulumi from "@pulumi/pulumi";
import { Emulator, startEmulator } from "../../emulator";
import { getProjects, getProjectsOutput } from "../../provider";
import { rewritingProxy } from "../../client/testing.test.helpers";

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

  it("leaves out of a summary what the service did not report, never the text undefined or NaN", async () => {
    const copied = ["platform_id", "provisioner", "pg_version", "proxy_host", "created_at", "updated_at"];
    const proxy = await rewritingProxy(emulator, (_method, _path, body) => {
      const b = body as { projects?: Record<string, unknown>[] };
      if (!b.projects) return body;
      const strip = (p: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(p).filter(([k]) => !copied.includes(k)));
      return { ...b, projects: b.projects.map(strip) };
    });
    pulumi.runtime.setConfig("neon:apiUrl", proxy.baseUrl);
    try {
      const { projects } = await getProjects({ search: "analytics-7" });
      const [{ id }] = projects;
      expect(projects).toEqual([{ id, projectId: id, name: "analytics-7", regionId: expect.any(String) }]);
    } finally {
      pulumi.runtime.setConfig("neon:apiUrl", emulator.baseUrl);
      await proxy.close();
    }
  });

  it("has an Output form for inputs that are Outputs", async () => {
    const names = await new Promise<string[]>((resolve) =>
      getProjectsOutput({ search: pulumi.output("analytics-30") }).apply((r) => resolve(r.projects.map((p) => p.name))),
    );
    expect(names).toEqual(["analytics-307"]);
  });
});
