import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientError } from "./client-error";
import { FaultInjector, type FaultKind, type FaultRule } from "./faults";
import { Lifecycle } from "./lifecycle";
import { OperationEngine, type OperationRule } from "./operations";
import { Saver } from "./persistence";
import { RateLimiter, type RateLimitOptions } from "./rate-limit";
import { createApp, type RequestLogEntry } from "./server";
import type { Store } from "./store";
import type { Fixture } from "./types";
import { addAccount, loadWorld } from "./world";

export type { FaultKind, FaultRule, Fixture, OperationRule, RequestLogEntry };
export { createApp } from "./server";

export interface EmulatorOptions {
  port?: number; // 0 (default) = any free port
  host?: string; // default 127.0.0.1
  apiKey?: string; // the console key; generated (64 chars) when absent
  timeScale?: number; // service seconds per real second; default 1
  manualClock?: boolean; // time moves only through clock.advance(ms)
  operationDurationMs?: number; // service ms in each of scheduling and running; default 1000
  latencyMs?: number; // added before every response; default 0
  rateLimit?: false | RateLimitOptions; // default 700/min per account, 40/s per route
  faults?: { seed?: number; rate?: number; kinds?: FaultKind[]; slowMs?: number };
  stateFile?: string; // persisted atomically; reloaded at start
  fixture?: string | Fixture; // starting world
  log?: (line: string) => void; // one line per request; never a key
}

export interface Emulator {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  projectId: string;
  clock: { now(): number; advance(ms: number): void };
  requests: RequestLogEntry[];
  stats(): { requests: number; byStatus: Record<string, number> };
  faults: { add(rule: FaultRule): void; clear(): void; injected(): number };
  operations: { failNext(rule?: OperationRule): void; stickNext(rule?: OperationRule): void };
  activity(projectId: string, endpointId: string): void;
  createAccount(): { accountId: string; apiKey: string; projectId: string };
  close(): Promise<void>;
}

/** The request log (latest 200k entries: a long soak or bench must not grow memory without bound) and counts. */
class RequestLog {
  static readonly MAX = 200_000;
  readonly entries: RequestLogEntry[] = [];
  private total = 0;
  private readonly byStatus: Record<string, number> = {};

  add(e: RequestLogEntry): void {
    this.total++;
    this.entries.push(e);
    if (this.entries.length > RequestLog.MAX) this.entries.splice(0, RequestLog.MAX / 2);
    const k = String(e.status);
    this.byStatus[k] = (this.byStatus[k] ?? 0) + 1;
  }

  stats(): { requests: number; byStatus: Record<string, number> } {
    return { requests: this.total, byStatus: { ...this.byStatus } };
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function saverFor(file: string | undefined, store: Store, now: () => number): Saver | undefined {
  if (!file) return undefined;
  return new Saver(file, () => {
    if (!store.dirty) return undefined;
    store.dirty = false;
    return JSON.stringify(store.snapshot(now()));
  });
}

/**
 * Starts a local emulator of Neon's management API on a real port. Tests, examples and benchmarks talk HTTP to
 * it exactly as to the real service, so a client that works here works there; nothing is printed unless `log`.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { store, clock, seeded } = loadWorld(options);
  const ops = new OperationEngine(store, options.operationDurationMs ?? 1000);
  const lifecycle = new Lifecycle(store, ops);
  const faults = new FaultInjector(options.faults);
  const saver = saverFor(options.stateFile, store, () => clock.now());
  const log = new RequestLog();
  const app = createApp(
    { store, ops, lifecycle, clock },
    {
      faults,
      rateLimiter: options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? {}),
      latencyMs: options.latencyMs,
      log: options.log,
      onMutation: saver && (() => saver.schedule()),
      onRequest: (e) => log.add(e),
    },
  );
  const server = createServer(app);
  server.on("clientError", answerClientError);
  const address = await listen(server, options.port ?? 0, options.host ?? "127.0.0.1");
  await saver?.flush();
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: `http://${host}:${address.port}/api/v2`,
    apiKey: seeded.apiKey,
    accountId: seeded.accountId,
    projectId: seeded.projectId,
    clock,
    requests: log.entries,
    stats: () => log.stats(),
    faults: { add: (r) => faults.add(r), clear: () => faults.clear(), injected: () => faults.injected() },
    operations: { failNext: (r) => ops.failNext(r), stickNext: (r) => ops.stickNext(r) },
    activity(projectId, endpointId) {
      lifecycle.activity(store.endpoint(projectId, endpointId), clock.now());
      saver?.schedule();
    },
    createAccount() {
      const s = addAccount(store, clock.now());
      saver?.schedule();
      return s;
    },
    close: () => (closed ??= closeAll(server, saver)),
  };
}

async function closeAll(server: Server, saver: Saver | undefined): Promise<void> {
  const done = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await done;
  await saver?.flush();
}
