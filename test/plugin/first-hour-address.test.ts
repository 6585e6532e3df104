/**
 * Issue 19, item 2: a newcomer's first hour, through the real plugin. A wrong address fails fast and says so: with
 * `neon:apiUrl` pointing at nothing, `up` was silent for the 2-minute retry budget, then cited a request ID no server
 * ever saw; a URL without /api/v2 got advice about projects and keys. And a long wait says what it waits for in the
 * Pulumi log as it goes (the plugin's stderr lines are the engine's diagnostics), without spamming it.
 */
import { createServer } from "http";
import { AddressInfo } from "net";
import { Compute } from "../../provider";
import { CommandResult } from "../../testing";
import { neonWorld, NeonWorld, ok, outputs } from "./world";

let world: NeonWorld;
let lockedSuspend = 300;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const replica = () =>
  new Compute("db", { projectId: world.projectId, branchId: world.branches.dev, type: "read_only" }).id;

/** A port nothing listens on: one a server held a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The plugin's lines in the Pulumi log (info diagnostics) that the provider wrote about a wait. */
const progressLines = (result: CommandResult) =>
  result.diagnostics.filter((d) => d.severity === "info" && d.message.startsWith("neon: ")).map((d) => d.message);

describe("a wrong address fails within seconds, naming the URL and where it came from", () => {
  it("neon:apiUrl where nothing listens (ECONNREFUSED): no 2-minute silence, no request ID no server saw", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/v2`;
    const stack = world.stack(replica, { config: { "neon:apiUrl": url } });
    const up = await stack.up();
    const message = up.error?.message ?? "";
    expect(message).toContain(`cannot reach the Neon API at ${url}: the connection was refused: nothing listens at`);
    expect(message).toMatch(/\(ECONNREFUSED\); tried 3 times over \d+\.\d s/);
    expect(message).toContain(`The API URL ${url} is neon:apiUrl (the stack config)`);
    expect(message).toContain("pulumi config set neon:apiUrl <URL>");
    expect(message).not.toContain("request ID");
    expect(message).not.toMatch(/retry budget|project-scoped/);
    expect(stack.state.resources.filter((r) => r.type.endsWith(":Compute"))).toEqual([]);
  });

  it("NEON_API_HOST naming a host that does not resolve (ENOTFOUND)", async () => {
    const url = "http://neon-api.invalid/api/v2";
    const stack = world.stack(replica, {
      noNeonConfig: true,
      env: { NEON_API_KEY: world.emulator.apiKey, NEON_API_HOST: url },
    });
    const up = await stack.up({ skipPreview: true });
    const message = up.error?.message ?? "";
    expect(message).toMatch(/tried 3 times over \d+\.\d s/); // a couple of quick retries, not the 2-minute budget
    expect(message).toContain(`cannot reach the Neon API at ${url}: the host name does not resolve: neon-api.invalid`);
    expect(message).toContain("is NEON_API_HOST (the environment; the stack config has no neon:apiUrl)");
    expect(message).not.toContain("request ID");
  });

  it("a URL without /api/v2 (every route answers 404 page not found) is told about the URL's path", async () => {
    const origin = world.emulator.baseUrl.replace(/\/api\/v2$/, "");
    const stack = world.stack(replica, { config: { "neon:apiUrl": origin } });
    const up = await stack.up({ skipPreview: true });
    const message = up.error?.message ?? "";
    expect(message).toMatch(/^HTTP 404: page not found/);
    expect(message).toContain(`The API URL ${origin} does not end in /api/v2`);
    expect(message).toContain(`(probably ${origin}/api/v2)`);
    expect(message).not.toMatch(/project-scoped|reaches project|may be refused with 404/);
  });
});

describe("a long wait says what it waits for in the Pulumi log, once after ~5 s, then every ~30 s", () => {
  it("an operation of about 6.5 s: one line naming the operation, the project and the time", async () => {
    const slow = await neonWorld({ emulator: { operationDurationMs: 6_500 } }); // a start_compute of about 6.5 s
    try {
      const stack = slow.stack(() => ({
        id: new Compute("db", { projectId: slow.projectId, branchId: slow.branches.dev, type: "read_only" }).id,
      }));
      const up = ok(await stack.up({ skipPreview: true }));
      const lines = progressLines(up);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^neon: waiting for operations of project ${slow.projectId} to finish: start_compute [0-9a-f-]+ ` +
            `\\((scheduling|running)\\); 5 s so far, at most 300 s$`,
        ),
      );
    } finally {
      await slow.stop(); // with its computes: nothing to destroy
    }
  });

  it("a project locked by someone else (HTTP 423 for ~7 s): one line naming the request and the lock", async () => {
    const stack = world.stack(() => ({
      id: new Compute("locked", {
        projectId: world.projectId,
        branchId: world.branches.dev,
        type: "read_only",
        suspendTimeoutSeconds: lockedSuspend,
      }).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    lockedSuspend = 600;
    world.emulator.faults.add({ method: "PATCH", path: `/endpoints/${id}`, kind: "423", times: 10_000 });
    // The lock lasts ~7 s from the first refused PATCH, not from now: on a busy machine the plugin's start alone can
    // take that long, and the lock would be gone before the update met it.
    let unlock: NodeJS.Timeout | undefined;
    const refused = () =>
      world.emulator.requests.some((r) => r.method === "PATCH" && r.status === 423 && r.path.endsWith(`/${id}`));
    const watch = setInterval(() => {
      if (unlock || !refused()) return;
      unlock = setTimeout(() => world.emulator.faults.clear(), 7_000);
    }, 50);
    try {
      const up = ok(await stack.up({ skipPreview: true }));
      const lines = progressLines(up);
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(2); // the retry's backoff may outlast the lock by up to 10 s
      expect(lines[0]).toMatch(
        new RegExp(
          `^neon: PATCH /projects/${world.projectId}/endpoints/${id}: the project is locked by operations in ` +
            `progress \\(HTTP 423\\); retrying for up to 120 s \\(5 s so far\\)$`,
        ),
      );
    } finally {
      clearInterval(watch);
      clearTimeout(unlock);
      world.emulator.faults.clear();
    }
    ok(await stack.destroy());
  });
});
