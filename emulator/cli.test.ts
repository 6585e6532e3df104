import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCli } from "./cli";
import { TestClient } from "./test-client";

const CLI = join(__dirname, "cli.js");

describe("cli", () => {
  it("parses the documented flags", () => {
    const o = parseCli([
      "--port",
      "0",
      "--api-key",
      "k",
      "--time-scale",
      "60",
      "--faults",
      "seed=1,rate=0.1",
      "--no-rate-limit",
    ]);
    expect(o).toMatchObject({ port: 0, apiKey: "k", timeScale: 60, faults: { seed: 1, rate: 0.1 }, rateLimit: false });
    expect(parseCli(["--rate-limit", "100,5"]).rateLimit).toEqual({ perMinute: 100, burstPerSecondPerRoute: 5 });
    expect(() => parseCli(["--port", "abc"])).toThrow(/--port/);
    expect(() => parseCli(["--bogus"])).toThrow();
    expect(parseCli(["--branch-move", "refused"]).branchMove).toBe("refused");
    expect(parseCli(["--pooler-requests", "refused"]).poolerRequests).toBe("refused");
    expect(() => parseCli(["--pooler-requests", "no"])).toThrow(/--pooler-requests.*allowed: accepted, refused/);
    expect(() => parseCli(["--branch-move", "sideways"])).toThrow(/--branch-move.*allowed: moves, refused, ignored/);
  });

  it("starts, prints the base URL and the key once, serves, and saves state on SIGTERM", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-cli-")), "state.json");
    const child = spawn(process.execPath, [CLI, "--port", "0", "--state-file", stateFile, "--no-rate-limit"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("NEON_PROJECT_ID=")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}`)));
    });
    const url = /NEON_API_HOST=(\S+)/.exec(out)?.[1] as string;
    const key = /NEON_API_KEY=(\S+)/.exec(out)?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    expect(key).toMatch(/^[a-z0-9]{64}$/);
    expect(out.split(key).length - 1).toBe(1);
    const c = new TestClient(url, key);
    expect((await c.post("/api_keys", { key_name: "from-cli-test" })).status).toBe(200);
    c.close();
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const saved = readFileSync(stateFile, "utf8");
    expect(saved).toContain("from-cli-test");
    expect(saved).not.toContain(key);
  });

  it("--help prints the usage; a bad flag exits 2", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args]);
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("exit", (code) => resolve({ code, out }));
      });
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("--time-scale");
    expect((await run(["--port", "nope"])).code).toBe(2);
  });
});
