/**
 * Shared set-up of the sdk's integration tests: a real emulator on port 0 and a client with millisecond budgets.
 * (Named `*.test.helpers.ts`: not a suite for jest, and excluded from the package by `!dist/**\/*.test.*`.)
 */
import { createServer, request } from "http";
import { AddressInfo } from "net";
import { Emulator, EmulatorOptions, startEmulator } from "../emulator";
import { ClientOptions, NeonClient } from "./client";

/** Fast operations, no server-side rate limit (tests that need one turn it on). */
export function start(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ operationDurationMs: 20, rateLimit: false, ...options });
}

/** Retries and waits in milliseconds, deterministic jitter, no client-side limiter. */
export function clientFor(emu: Emulator, extra: Partial<ClientOptions> = {}): NeonClient {
  return new NeonClient({
    apiKey: emu.apiKey,
    apiUrl: emu.baseUrl,
    retry: { baseDelayMs: 2, maxDelayMs: 50, maxTotalMs: 5_000, rateLimitFloorMs: 5 },
    wait: { initialIntervalMs: 5, maxIntervalMs: 25, timeoutMs: 10_000 },
    random: () => 0.5,
    rateLimit: false,
    ...extra,
  });
}

/** The requests the emulator saw for one method and path (after /api/v2). */
export function seen(emu: Emulator, method: string, path: string | RegExp) {
  return emu.requests.filter(
    (r) => r.method === method && (typeof path === "string" ? r.path.endsWith(path) : path.test(r.path)),
  );
}

/** Catches the rejection of a promise, failing the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection, got a result");
}

/** Rewrites one JSON response body (its method and path after /api/v2 given); return it unchanged to pass it on. */
export type Rewrite = (method: string, path: string, body: unknown) => unknown;

/**
 * A reverse proxy in front of the emulator that rewrites JSON response bodies: the real emulator still answers
 * and applies every request, and a test sees what the client does when the service drops or changes a field.
 */
export async function rewritingProxy(
  emu: Emulator,
  rewrite: Rewrite,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const target = new URL(emu.baseUrl);
  const server = createServer((req, res) => {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        const chunks: Buffer[] = [];
        up.on("data", (c: Buffer) => chunks.push(c));
        up.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const path = (req.url ?? "").replace(/^\/api\/v2/, "").split("?")[0];
          const body = text ? JSON.stringify(rewrite(req.method ?? "GET", path, JSON.parse(text))) : "";
          res.writeHead(up.statusCode ?? 502, { "Content-Type": "application/json" });
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v2`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
