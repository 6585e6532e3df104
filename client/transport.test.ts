import { createServer, Server } from "http";
import { AddressInfo } from "net";
import { z } from "zod";
import { NeonError } from "./errors";
import { DEFAULT_RETRY_POLICY } from "./retry";
import { Transport } from "./transport";

/** A port nothing listens on: one a server held a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function transport(apiUrl: string, extra: Partial<ConstructorParameters<typeof Transport>[0]> = {}) {
  return new Transport({
    apiKey: "k3y-0123456789abcdef",
    apiUrl,
    retry: DEFAULT_RETRY_POLICY,
    random: () => 0.5,
    timeoutMs: 5_000,
    ...extra,
  });
}

const get = { method: "GET" as const, path: "/projects/p-1/endpoints", schema: z.unknown() };

/**
 * Issue 19: with neon:apiUrl pointing at nothing, `up` was silent for the 2-minute retry budget, then cited a request
 * ID that no server ever saw.
 */
describe("an address where nothing listens", () => {
  it("fails within seconds, naming the URL, with no request ID", async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const error = (await transport(`http://127.0.0.1:${port}/api/v2`, { log: (line) => lines.push(line) })
      .request(get)
      .catch((e: unknown) => e)) as NeonError;
    expect(error).toBeInstanceOf(NeonError);
    expect(error).toMatchObject({ kind: "network", code: "ECONNREFUSED" });
    expect(error.requestId).toBeUndefined();
    expect(error.message).toMatch(
      new RegExp(
        `^cannot reach the Neon API at http://127\\.0\\.0\\.1:${port}/api/v2: the connection was refused: nothing ` +
          `listens at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\); tried 3 times over \\d+\\.\\d s ` +
          `\\(GET /projects/p-1/endpoints\\)$`,
      ),
    );
    expect(lines.filter((line) => line.startsWith("GET"))).toHaveLength(3);
  });
});

describe("a request retried for more than a few seconds", () => {
  let server: Server;
  let url: string;
  let lines: string[] = [];
  beforeAll(async () => {
    server = createServer((_req, res) => {
      const locked = lines.length === 0; // locked until the client has said what it waits for
      res.writeHead(locked ? 423 : 200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(locked ? { code: "", message: "project already has running operations" } : {}));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("says what it waits for while it retries (here after 100 ms), and nothing once it succeeded", async () => {
    lines = [];
    const retry = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 20, maxDelayMs: 40 };
    const sending = transport(url, {
      retry,
      progress: { say: (line) => lines.push(line), afterMs: 100, everyMs: 150 },
    });
    await sending.request(get);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatch(
      /^GET \/projects\/p-1\/endpoints: the project is locked by operations in progress \(HTTP 423\); retrying for up to 120 s/,
    );
    const count = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines.length).toBe(count);
  });
});
