import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
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
    a.clock.advance(10_000);
    const clockBefore = a.clock.now();
    c.close();
    await a.close();

    const text = readFileSync(stateFile, "utf8");
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(created.key);
    expect(readdirSync(dir)).toEqual(["state.json"]); // no temporary file left

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
