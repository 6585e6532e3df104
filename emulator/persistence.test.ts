import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Emulator, startEmulator } from "./index";
import { primaryEndpoint, TestClient, branchId } from "./test-client";

/** A fresh state file in a temporary directory. */
const tempStateFile = (): string => join(mkdtempSync(join(tmpdir(), "neon-emu-")), "s.json");

/** An emulator saving to `stateFile`, and a client of its console key. */
async function persisted(stateFile: string): Promise<{ em: Emulator; c: TestClient }> {
  const em = await startEmulator({ stateFile, rateLimit: false });
  return { em, c: new TestClient(em.baseUrl, em.apiKey) };
}

describe("persistence", () => {
  it("survives close and restart with keys, computes and operations; the file holds no secret", async () => {
    const dir = mkdtempSync(join(tmpdir(), "neon-emu-"));
    const stateFile = join(dir, "state.json");
    const apiKey = "console-key-for-persistence-test-0123456789abcdefghijklmnopqrstu";
    const a = await startEmulator({ apiKey, stateFile, manualClock: true, rateLimit: false });
    const c = new TestClient(a.baseUrl, apiKey);
    const created = (await c.post("/api_keys", { key_name: "ci" })).body;
    const dev = await branchId(c, a.projectId, "dev");
    const ep = (await c.post(`/projects/${a.projectId}/endpoints`, { endpoint: { branch_id: dev, type: "read_only" } }))
      .body;
    // The debounced write after the last mutation runs first (as it does on a loaded machine): the clock then moves
    // with nothing left to write, and close must still record it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    a.clock.advance(10_000);
    const clockBefore = a.clock.now();
    c.close();
    await a.close();

    const text = readFileSync(stateFile, "utf8");
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(created.key);
    // no temporary file left; the role passwords are kept beside it, never in it
    expect(readdirSync(dir).sort()).toEqual(["state.json", "state.json.passwords"]);

    const b = await startEmulator({ apiKey, stateFile, manualClock: true, rateLimit: false });
    expect(b.projectId).toBe(a.projectId);
    expect(b.clock.now()).toBe(clockBefore);
    const c2 = new TestClient(b.baseUrl, created.key); // the key created through the API still works
    const got = await c2.get(`/projects/${b.projectId}/endpoints/${ep.endpoint.id}`);
    expect(got.status).toBe(200);
    expect(got.body.endpoint.current_state).toBe("active");
    const op = await c2.get(`/projects/${b.projectId}/operations/${ep.operations[0].id}`);
    expect(op.body.operation.status).toBe("finished");
    expect((await c2.get("/api_keys")).body.map((k: { name: string }) => k.name)).toEqual(["console", "ci"]);
    c2.close();
    await b.close();
  });

  it("without the old console key, a restart makes a new one and the world stays", async () => {
    const stateFile = tempStateFile();
    const { em: a, c } = await persisted(stateFile);
    const ep = await primaryEndpoint(c, a.projectId);
    c.close();
    await a.close();
    const { em: b, c: c2 } = await persisted(stateFile);
    expect(b.apiKey).not.toBe(a.apiKey);
    expect((await c2.get(`/projects/${b.projectId}/endpoints/${ep.id}`)).status).toBe(200);
    expect((await c2.get("/projects", { key: a.apiKey })).status).toBe(200); // the old key is still valid
    c2.close();
    await b.close();
  });

  it("role passwords: kept beside the file; without that file a reload gives new ones; an older file gets neondb", async () => {
    const stateFile = tempStateFile();
    const { em: a, c } = await persisted(stateFile);
    const reveal = `/projects/${a.projectId}/branches/${a.branches.main}/roles/neondb_owner/reveal_password`;
    const before = (await c.get(reveal)).body.password as string;
    c.close();
    await a.close();
    expect(readFileSync(stateFile, "utf8")).not.toContain(before);
    expect(JSON.parse(readFileSync(`${stateFile}.passwords`, "utf8"))).toEqual({
      [a.branches.main]: { neondb_owner: before },
      [a.branches.dev]: { neondb_owner: before },
      [a.branches.staging]: { neondb_owner: before },
    });
    rmSync(`${stateFile}.passwords`);
    const { em: b, c: c2 } = await persisted(stateFile);
    const after = (await c2.get(reveal, { key: a.apiKey })).body.password as string;
    expect(after).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(after).not.toBe(before);
    c2.close();
    await b.close();
    // a file written before roles and databases were modelled
    const older = JSON.parse(readFileSync(stateFile, "utf8"));
    delete older.roles;
    delete older.databases;
    writeFileSync(stateFile, JSON.stringify(older));
    const { em: d, c: c3 } = await persisted(stateFile);
    const dbs = await c3.get(`/projects/${d.projectId}/branches/${d.branches.dev}/databases`, { key: a.apiKey });
    expect(dbs.body.databases.map((x: { name: string; owner_name: string }) => [x.name, x.owner_name])).toEqual([
      ["neondb", "neondb_owner"],
    ]);
    c3.close();
    await d.close();
  });

  it("saves after a mutation without waiting for close", async () => {
    const stateFile = tempStateFile();
    const { em, c } = await persisted(stateFile);
    await c.post("/api_keys", { key_name: "saved-soon" });
    await new Promise((r) => setTimeout(r, 300));
    expect(readFileSync(stateFile, "utf8")).toContain("saved-soon");
    c.close();
    await em.close();
  });
});
