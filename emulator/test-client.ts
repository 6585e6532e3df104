import { Agent, request } from "node:http";
import { startEmulator, type Emulator, type EmulatorOptions } from "./index";

/** Test support (not a test): a tiny HTTP client over one kept-alive connection, so tests see real sockets. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

export interface Res {
  status: number;
  body: Body;
  headers: Record<string, string | string[] | undefined>;
  reusedSocket: boolean;
}

export interface SendOptions {
  body?: unknown;
  raw?: string | Buffer;
  key?: string | null; // null: no Authorization header
  headers?: Record<string, string>;
}

export class TestClient {
  readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly baseUrl: string,
    public key: string,
  ) {}

  send(method: string, path: string, opts: SendOptions = {}): Promise<Res> {
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
    const key = opts.key === undefined ? this.key : opts.key;
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    if (payload !== undefined) headers["Content-Type"] = "application/json";
    return new Promise((resolve, reject) => {
      const req = request(`${this.baseUrl}${path}`, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: Body;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = text;
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers, reusedSocket: req.reusedSocket });
        });
      });
      req.on("error", reject);
      req.end(payload);
    });
  }

  get = (path: string, opts?: SendOptions): Promise<Res> => this.send("GET", path, opts);
  post = (path: string, body?: unknown, opts?: SendOptions): Promise<Res> => this.send("POST", path, { ...opts, body });
  patch = (path: string, body?: unknown, opts?: SendOptions): Promise<Res> =>
    this.send("PATCH", path, { ...opts, body });
  del = (path: string, opts?: SendOptions): Promise<Res> => this.send("DELETE", path, opts);

  close(): void {
    this.agent.destroy();
  }
}

/** The id of a branch by name. */
export async function branchId(c: TestClient, projectId: string, name: string): Promise<string> {
  const res = await c.get(`/projects/${projectId}/branches`);
  const b = (res.body.branches as { id: string; name: string }[]).find((x) => x.name === name);
  if (!b) throw new Error(`no branch ${name}`);
  return b.id;
}

/** The primary compute of the default world (on main). */
export async function primaryEndpoint(c: TestClient, projectId: string): Promise<Body> {
  const res = await c.get(`/projects/${projectId}/endpoints`);
  return (res.body.endpoints as Body[]).find((e) => e.type === "read_write");
}

/**
 * The setup the route suites share: an emulator (manual clock, no rate limit) and a client on it, started before
 * each test (or once, with `scope: "all"`) and closed after. `use` receives them, so a suite keeps its own names.
 */
export function emulatorForTests(use: (em: Emulator, c: TestClient) => void, scope: "each" | "all" = "each"): void {
  let em: Emulator | undefined;
  let c: TestClient | undefined;
  (scope === "each" ? beforeEach : beforeAll)(async () => {
    em = await startEmulator({ manualClock: true, rateLimit: false });
    c = new TestClient(em.baseUrl, em.apiKey);
    use(em, c);
  });
  (scope === "each" ? afterEach : afterAll)(async () => {
    c?.close();
    await em?.close();
  });
}

/** An emulator of one test and a client on it. */
export interface TestWorld {
  em: Emulator;
  c: TestClient;
  pid: string;
}

/**
 * For suites whose tests each start their emulator with their own options (a behaviour switched, a plan, a state
 * file): `boot(options)` starts one (manual clock, no rate limit, `defaults`, then `options`); every one a test
 * started is closed after it.
 */
export function emulatorPerTest(defaults: EmulatorOptions = {}): (options?: EmulatorOptions) => Promise<TestWorld> {
  const open: TestWorld[] = [];
  afterEach(async () => {
    for (const w of open.splice(0)) {
      w.c.close();
      await w.em.close();
    }
  });
  return async (options = {}) => {
    const em = await startEmulator({ manualClock: true, rateLimit: false, ...defaults, ...options });
    const world = { em, c: new TestClient(em.baseUrl, em.apiKey), pid: em.projectId };
    open.push(world);
    return world;
  };
}
