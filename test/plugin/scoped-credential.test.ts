/**
 * A CI pipeline holding a project-scoped key (`neon:apiKey` set to it) manages the Compute resources of its project:
 * create, update and destroy send requests under `/projects/{its project}` only. Whatever lies outside that project
 * fails with an error that says why (the key's scope), not only "403": a Compute of another project (also when the
 * service answers 404, whose status for a key used outside its scope no source gives), and getProjects (a scoped key
 * cannot list projects).
 */
import { Compute, getProjects } from "../../provider";
import { LocalStack } from "../../testing";
import { orgWorld, Orgs } from "./api-key-kinds";
import { NeonWorld, ok, ops, requests } from "./world";

let world: NeonWorld;
let orgs: Orgs;
let scopedKey: string;
let stack: LocalStack;
let sizeCu = 1;
let elsewhere = false;
let listProjects = false;
const branches: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  ({ world, orgs } = await orgWorld());
  for (const projectId of orgs.projects) {
    branches[projectId] = Object.fromEntries((await world.api.branches.list(projectId)).map((b) => [b.name, b.id]));
  }
  const created = await world.api.orgApiKeys.create(orgs.orgA, { key_name: "ci", project_id: orgs.projects[0] });
  scopedKey = created.key;
  const [own, other] = orgs.projects;
  stack = world.stack(
    () => {
      const db = new Compute("db", {
        projectId: own,
        branchId: branches[own].dev,
        autoscalingLimitMinCu: sizeCu,
        autoscalingLimitMaxCu: sizeCu,
      });
      const out: Record<string, unknown> = { id: db.id, host: db.host };
      if (elsewhere) out.other = new Compute("other", { projectId: other, branchId: branches[other].dev }).id;
      // a program that awaits getProjects (an error inside an Output's apply would escape the local engine)
      if (listProjects) return getProjects().then(({ projects }) => ({ ...out, projects: projects.length }));
      return out;
    },
    { config: { "neon:apiKey": { secret: scopedKey } } },
  );
});
afterAll(() => world.stop());

/** True when every request of the command went to the key's own project. */
const inOwnProject = (result: Parameters<typeof requests>[0]) =>
  requests(result).every((r) => r.path.startsWith(`/projects/${orgs.projects[0]}/`));

describe("a project-scoped key as the provider's credential", () => {
  it("creates a Compute in its project, sending requests under that project only", async () => {
    const result = ok(await stack.up());
    expect(ops(result)).toEqual(["create db"]);
    expect(requests(result).length).toBeGreaterThan(0);
    expect(inOwnProject(result)).toBe(true);
    const endpoints = await world.api.endpoints.list(orgs.projects[0]);
    expect(endpoints.map((e) => e.branch_id)).toContain(branches[orgs.projects[0]].dev);
  });

  it("updates it (a resize) and refreshes it, still within the project", async () => {
    sizeCu = 2;
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["update db"]);
    expect(inOwnProject(up)).toBe(true);
    const refresh = ok(await stack.refresh());
    expect(inOwnProject(refresh)).toBe(true);
  });

  it("a Compute of another project fails with 403 and says the key is limited to its project", async () => {
    elsewhere = true;
    const result = await stack.up({ skipPreview: true });
    elsewhere = false;
    expect(result.error).toBeDefined();
    const refused = requests(result).filter((r) => r.path.startsWith(`/projects/${orgs.projects[1]}/`));
    expect(refused.map((r) => r.status)).toEqual([403]);
    const messages = [...result.steps.map((s) => s.error ?? ""), ...result.diagnostics.map((d) => d.message)];
    expect(messages.join("\n")).toContain("HTTP 403");
    expect(messages.join("\n")).toContain("A project-scoped API key can use only its own project");
    expect(messages.join("\n")).not.toContain(scopedKey);
  });

  // No source gives the status of a request outside a key's scope: the emulator's 403 is a guess. A service that
  // answers 404 instead (as for a project that does not exist) must still get advice, not a bare "project not found".
  it("a Compute of another project answered 404 instead of 403 (scripted) still says what the 404 may mean", async () => {
    const other = orgs.projects[1];
    world.emulator.replies.rewriteNext({
      path: `/projects/${other}/`,
      times: 20,
      rewrite: (reply) =>
        reply.status === 403
          ? { status: 404, body: { ...(reply.body as object), message: "project not found" } }
          : reply,
    });
    elsewhere = true;
    const result = await stack.up({ skipPreview: true });
    elsewhere = false;
    world.emulator.replies.clear();
    expect(result.error).toBeDefined();
    const refused = requests(result).filter((r) => r.path.startsWith(`/projects/${other}/`));
    expect(refused.map((r) => r.status)).toEqual([404]);
    const messages = [...result.steps.map((s) => s.error ?? ""), ...result.diagnostics.map((d) => d.message)];
    const text = messages.join("\n");
    expect(text).toContain("HTTP 404: project not found");
    expect(text).toContain("a project-scoped key outside its own project may be refused with 404 rather than 403");
    expect(text).toContain(`use a key that reaches project ${other}`);
    expect(text).not.toContain(scopedKey);
  });

  it("getProjects with the scoped key fails with an error that names the scope", async () => {
    listProjects = true;
    const result = await stack.up({ skipPreview: true });
    listProjects = false;
    expect(result.error?.message ?? "").toContain("A project-scoped API key can use only its own project");
    expect(result.error?.message ?? "").toContain("cannot list projects");
    expect(
      requests(result)
        .filter((r) => r.path === "/projects")
        .map((r) => r.status),
    ).toEqual([403]);
    expect(JSON.stringify(result)).not.toContain(scopedKey);
  });

  it("destroys its Compute with the scoped key", async () => {
    const id = String(stack.outputs().id);
    const result = ok(await stack.destroy());
    expect(ops(result)).toEqual(["delete db"]);
    expect(inOwnProject(result)).toBe(true);
    expect((await world.api.endpoints.list(orgs.projects[0])).map((e) => e.id)).not.toContain(id);
  });
});
