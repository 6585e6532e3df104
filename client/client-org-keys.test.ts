/**
 * Organization keys through the client, against the emulator over HTTP: create (organization-wide and scoped to a
 * project, with `project_id` answered), list, revoke; what a scoped key's client may reach (its project) and the
 * service's 403 elsewhere (kind auth, not retried); a lost create response is not resent.
 */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { OrgApiKey, OrgApiKeyCreated, OrgApiKeyList } from "./schemas-api-keys";
import { clientFor, rejection, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
let orgId: string;
let projectIds: string[];

beforeAll(async () => {
  emu = await start();
  client = clientFor(emu);
  ({ orgId, projectIds } = emu.createOrganization({ projects: 2 }));
});
afterAll(() => emu.close());

describe("orgApiKeys", () => {
  it("creates a project-scoped key (project_id answered), lists it with its scope and revokes it", async () => {
    const created = await client.orgApiKeys.create(orgId, { key_name: "ci", project_id: projectIds[0] });
    expect(created).toMatchObject({ name: "ci", project_id: projectIds[0] });
    expect(created.key).toHaveLength(64);
    const listed = await client.orgApiKeys.list(orgId);
    expect(listed.find((k) => k.id === created.id)).toMatchObject({ name: "ci", project_id: projectIds[0] });
    expect((await client.apiKeys.list()).map((k) => k.id)).not.toContain(created.id);
    const revoked = await client.orgApiKeys.revoke(orgId, created.id);
    expect(revoked).toMatchObject({ id: created.id, revoked: true, project_id: projectIds[0] });
    expect((await client.orgApiKeys.list(orgId)).map((k) => k.id)).not.toContain(created.id);
    expect(await rejection(client.orgApiKeys.revoke(orgId, created.id))).toMatchObject({ kind: "not_found" });
  });

  it("creates an organization-wide key: no project_id, every project of the organization", async () => {
    const created = await client.orgApiKeys.create(orgId, { key_name: "org" });
    expect(created.project_id).toBeUndefined();
    const orgClient = clientFor(emu, { apiKey: created.key });
    expect((await orgClient.projects.listAll()).map((p) => p.id).sort()).toEqual([...projectIds].sort());
    await client.orgApiKeys.revoke(orgId, created.id);
  });

  it("a scoped key's client uses its project and gets kind auth (403), unretried, elsewhere", async () => {
    const { id, key } = await client.orgApiKeys.create(orgId, { key_name: "ci", project_id: projectIds[0] });
    const scoped = clientFor(emu, { apiKey: key });
    expect((await scoped.endpoints.list(projectIds[0])).length).toBeGreaterThan(0);
    const before = seen(emu, "GET", /\/projects$/).length;
    const refused = await rejection(scoped.projects.listAll());
    expect(refused).toMatchObject({ kind: "auth", status: 403, retryable: false });
    expect(refused.message).toContain(`scoped to project ${projectIds[0]}`);
    expect(seen(emu, "GET", /\/projects$/).length - before).toBe(1);
    expect(await rejection(scoped.endpoints.list(projectIds[1]))).toMatchObject({ status: 403 });
    expect(await rejection(scoped.apiKeys.create({ key_name: "x" }))).toMatchObject({ status: 403 });
    await client.orgApiKeys.revoke(orgId, id);
  });

  it("a non-member is answered not_found (404); a malformed project_id validation (400)", async () => {
    const outsider = clientFor(emu, { apiKey: emu.createAccount().apiKey });
    expect(await rejection(outsider.orgApiKeys.list(orgId))).toMatchObject({ kind: "not_found", status: 404 });
    const bad = await rejection(client.orgApiKeys.create(orgId, { key_name: "k", project_id: "Not An Id" }));
    expect(bad).toMatchObject({ kind: "validation", status: 400 });
  });

  it("an ambiguous create is not resent (no second secret nobody saw)", async () => {
    const path = `/organizations/${orgId}/api_keys`;
    const before = (await client.orgApiKeys.list(orgId)).length;
    const sent = seen(emu, "POST", path).length;
    emu.faults.add({ method: "POST", path, kind: "ambiguous", times: 1 });
    expect((await rejection(client.orgApiKeys.create(orgId, { key_name: "once" }))).kind).toBe("ambiguous");
    expect(seen(emu, "POST", path).length - sent).toBe(1);
    expect((await client.orgApiKeys.list(orgId)).length - before).toBe(1);
  });
});

describe("organization key schemas tolerate what the service may send", () => {
  const created = { id: 1, key: "k", name: "ci", created_at: "2022-11-15T20:13:35Z", created_by: "u" };
  it("project_id absent, null or set", () => {
    expect(OrgApiKeyCreated.parse(created).project_id).toBeUndefined();
    expect(OrgApiKeyCreated.parse({ ...created, project_id: null }).project_id).toBeNull();
    expect(OrgApiKeyCreated.parse({ ...created, project_id: "p-1" }).project_id).toBe("p-1");
  });
  it("a list item with only id, name and created_at (unused fields absent)", () => {
    const item: OrgApiKey = { id: 2, name: "k", created_at: "2022-11-15T20:13:35Z" };
    expect(OrgApiKeyList.parse([{ ...item, brand_new: 1 }])).toEqual([item]);
  });
});
