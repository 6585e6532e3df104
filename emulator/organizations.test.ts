import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCli } from "./cli-options";
import { startEmulator } from "./index";
import { emulatorPerTest, type Body } from "./test-client";

/** Where organizations come from (fixture, the `organization` option, `--org`) and that a state file keeps them. */
describe("organizations", () => {
  const boot = emulatorPerTest();

  it("a fixture names memberships and org projects; a project's org_id makes its owner a member", async () => {
    const { em, c } = await boot({
      fixture: {
        accounts: [
          { apiKey: "a".repeat(64), projects: [{ id: "org-project-1", org_id: "org-acme-12345678" }] },
          { apiKey: "b".repeat(64), organizations: [{ id: "org-acme-12345678", role: "member" }] },
        ],
      },
    });
    const path = "/organizations/org-acme-12345678/api_keys";
    expect((await c.post(path, { key_name: "wide" })).status).toBe(200); // the owner joined as an admin
    expect((await c.post(path, { key_name: "wide" }, { key: "b".repeat(64) })).status).toBe(403);
    const scoped = await c.post(path, { key_name: "ci", project_id: "org-project-1" }, { key: "b".repeat(64) });
    expect(scoped.body).toMatchObject({ project_id: "org-project-1" });
    expect(em.projectId).toBe("org-project-1");
  });

  it.each([
    [{ organizations: [{ id: "Bad Org" }] }, /organization id/],
    [{ organizations: [{ id: "org-a-1", role: "owner" }] }, /role "owner" is not allowed/],
  ])("a fixture membership %j fails at start, naming it", async (account, message) => {
    await expect(startEmulator({ fixture: { accounts: [account as never] } })).rejects.toThrow(message);
  });

  it("the organization option (CLI --org) puts the default project into an organization the console key administers", async () => {
    expect(parseCli(["--org", "org-demo-12345678"]).organization).toBe("org-demo-12345678");
    const { em, c } = await boot({ organization: "org-demo-12345678" });
    const project = (await c.get(`/projects/${em.projectId}`)).body.project;
    expect(project.org_id).toBe("org-demo-12345678");
    const key = (
      await c.post("/organizations/org-demo-12345678/api_keys", { key_name: "ci", project_id: em.projectId })
    ).body;
    expect((await c.get(`/projects/${em.projectId}/endpoints`, { key: key.key })).status).toBe(200);
    await expect(startEmulator({ organization: "Not Valid" })).rejects.toThrow(/organization/);
  });

  it("a state file keeps organizations, members and key scopes, with key hashes only", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-org-")), "s.json");
    const apiKey = "c".repeat(64);
    const { em, c } = await boot({ stateFile, apiKey });
    const { orgId, projectIds } = em.createOrganization({ projects: 2 });
    const path = `/organizations/${orgId}/api_keys`;
    const scoped = (await c.post(path, { key_name: "ci", project_id: projectIds[0] })).body;
    const wide = (await c.post(path, { key_name: "org" })).body;
    c.close();
    await em.close();
    const text = readFileSync(stateFile, "utf8");
    for (const secret of [apiKey, scoped.key, wide.key]) expect(text).not.toContain(secret);

    const again = await boot({ stateFile, apiKey });
    const listed = (await again.c.get(path)).body as Body[];
    expect(listed.map((k) => [k.name, k.project_id])).toEqual([
      ["ci", projectIds[0]],
      ["org", undefined],
    ]);
    expect((await again.c.get(`/projects/${projectIds[0]}`, { key: scoped.key })).status).toBe(200);
    expect((await again.c.get(`/projects/${projectIds[1]}`, { key: scoped.key })).status).toBe(403);
    expect((await again.c.get(`/projects/${projectIds[1]}`, { key: wide.key })).status).toBe(200);
  });
});
