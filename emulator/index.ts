import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  describeBehaviours,
  resolveBehaviours,
  type BranchMove,
  type DatabaseOwnedUntil,
  type PoolerRequests,
  type RevealAfterReset,
  type ServiceBehaviours,
} from "./behaviours";
import { answerClientError } from "./client-error";
import { FaultInjector, type FaultKind, type FaultRule } from "./faults";
import type { Fixture } from "./fixture-format";
import { createService } from "./domain/service";
import type { OperationRule } from "./operations";
import { Saver } from "./persistence";
import { RateLimiter, type RateLimitOptions } from "./rate-limit";
import { ReplyScript, type ReplyRule } from "./replies";
import { RequestLog } from "./request-log";
import { passwordsOf, snapshotOf } from "./snapshot";
import { createApp, type RequestLogEntry } from "./server";
import type { Store } from "./store";
import type { OrgRole, Plan } from "./types";
import { addAccount, addOrganization, loadWorld, type OrganizationOptions } from "./world";

export type {
  FaultKind,
  FaultRule,
  Fixture,
  OperationRule,
  OrganizationOptions,
  OrgRole,
  Plan,
  ReplyRule,
  RequestLogEntry,
  ServiceBehaviours,
};
export { createApp } from "./server";
export { describeBehaviours, REAL_SERVICE } from "./behaviours";
export { PREVIOUS_WORLD_HEADER, WORLD_HEADER } from "./world-identity";

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
  fresh?: boolean; // with stateFile: a new world replaces the saved one (whose key and projects get PREVIOUS_WORLD_HEADER)
  fixture?: string | Fixture; // starting world
  log?: (line: string) => void; // one line per request; never a key
  plan?: Plan; // the first account's plan; "free": sizes up to 2 CU, autosuspend delay fixed (default: the fixture's, else paid)
  organization?: string; // a fresh world's first account is an admin of this organization, which holds its first project
  // The real service's behaviours (defaults: as it is, late 2026; see behaviours.ts and README "Sources"):
  deleteOperations?: boolean; // DELETE returns a running suspend_compute that locks the project; default true
  retryAfter?: boolean; // 429 carries Retry-After; default false
  omitPoolerFields?: boolean; // responses lack pooler_enabled / pooler_mode, requests' are ignored; default true
  poolerRequests?: PoolerRequests; // a request's pooler fields: "accepted" (default) or "refused" (400, a guess)
  restartRequiresActive?: boolean; // restart of an idle compute answers 422; default true
  branchReadyDelayMs?: number; // service ms a new branch stays "not ready" (422) after create_branch; default 0
  branchMove?: BranchMove; // a PATCH's branch_id: "moves" (default, the service today), "refused" or "ignored"
  pageSize?: number; // items a page of a paged list holds when the request gives no limit (default: the document's or a guess)
  storePasswords?: boolean; // true (default): each project's own store_passwords; false: all false, reveal answers 412
  revealAfterReset?: RevealAfterReset; // reveal during a reset's operations: "new" (default, a guess) or "old"
  /** Until when a deleted database refuses its role's delete: "answered" (default, a guess) or "finished". */
  databaseOwnedUntil?: DatabaseOwnedUntil;
}

export interface Emulator {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  projectId: string;
  /** The id of the world it serves, sent on every response as X-Neon-Emulator-World (world-identity.ts). */
  worldId: string;
  /**
   * The branches of the default project, name → id, as they are when read (the default world's: main, which holds
   * the primary compute, dev and staging), so a test needs no API call to find a branch to put a compute on.
   */
  readonly branches: Record<string, string>;
  clock: { now(): number; advance(ms: number): void };
  requests: RequestLogEntry[];
  stats(): { requests: number; byStatus: Record<string, number> };
  faults: { add(rule: FaultRule): void; clear(): void; injected(): number };
  /**
   * A test device, not a service behaviour: rewrites the replies to the next matching requests after the route ran
   * (an optional field left out, another value or status), to prove a client against answers the emulator never
   * gives on its own (replies.ts).
   */
  replies: { rewriteNext(rule: ReplyRule): void; clear(): void };
  operations: {
    failNext(rule?: OperationRule): void;
    skipNext(rule?: Pick<OperationRule, "action" | "times">): void;
    stickNext(rule?: Pick<OperationRule, "action" | "times">): void;
  };
  /** The behaviours this emulator runs with (every default resolved). */
  behaviours: ServiceBehaviours;
  /** One line naming them, for a benchmark's or test run's header. */
  describe(): string;
  activity(projectId: string, endpointId: string): void;
  createAccount(options?: { plan?: Plan }): { accountId: string; apiKey: string; projectId: string };
  /** An organization with its members (default: this account, admin) and new projects (default 1) of its own. */
  createOrganization(options?: OrganizationOptions): { orgId: string; projectIds: string[] };
  close(): Promise<void>;
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
  // The clock is part of the world: one moved since the last write (a manual clock advanced, time passed before a
  // close) is written too, or a restart would take the world back to the last mutation's time (a debounced write
  // that ran before the clock moved left nothing for close to flush).
  let savedClock: number | undefined;
  const serialize = (): string | undefined => {
    const at = now();
    if (!store.dirty && at === savedClock) return undefined;
    store.dirty = false;
    savedClock = at;
    return JSON.stringify(snapshotOf(store, at));
  };
  return new Saver(file, serialize, 50, () => JSON.stringify(passwordsOf(store)));
}

/**
 * Starts a local emulator of Neon's management API on a real port. Tests, examples and benchmarks talk HTTP to
 * it exactly as to the real service, so a client that works here works there; nothing is printed unless `log`.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const behaviours = behavioursOf(options);
  const { store, clock, seeded } = loadWorld(options);
  const service = createService(store, behaviours, options.operationDurationMs ?? 1000);
  const { ops, lifecycle } = service;
  const faults = new FaultInjector(options.faults);
  const replies = new ReplyScript();
  const saver = saverFor(options.stateFile, store, () => clock.now());
  const log = new RequestLog();
  const app = createApp(
    { ...service, clock },
    {
      faults,
      replies,
      rateLimiter: options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? {}),
      latencyMs: options.latencyMs,
      log: options.log,
      onMutation: saver && (() => saver.schedule()),
      onRequest: (e) => log.add(e),
    },
  );
  const server = createServer(app);
  // Node closes a kept-alive connection after 5 idle seconds, and a client sending on it just then gets ECONNRESET
  // (seen on a busy machine, where tests pause longer between requests). A minute, like the load balancers in front of
  // web APIs, makes that race rare; close() ends every connection anyway.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
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
    worldId: store.world.id,
    get branches() {
      const branches = store.branchesOf(seeded.projectId).sort((a, b) => a.seq - b.seq);
      return Object.fromEntries(branches.map((b) => [b.name, b.id]));
    },
    clock,
    requests: log.entries,
    stats: () => log.stats(),
    faults: { add: (r) => faults.add(r), clear: () => faults.clear(), injected: () => faults.injected() },
    replies: { rewriteNext: (r) => replies.add(r), clear: () => replies.clear() },
    operations: {
      failNext: (r) => ops.failNext(r),
      skipNext: (r) => ops.skipNext(r),
      stickNext: (r) => ops.stickNext(r),
    },
    behaviours,
    describe: () => describeBehaviours(behaviours),
    activity(projectId, endpointId) {
      lifecycle.activity(store.endpoint(projectId, endpointId), clock.now());
      saver?.schedule();
    },
    createAccount(accountOptions = {}) {
      const s = addAccount(store, clock.now(), accountOptions.plan);
      saver?.schedule();
      return s;
    },
    createOrganization(organizationOptions) {
      const created = addOrganization(store, clock.now(), seeded.accountId, organizationOptions);
      saver?.schedule();
      return created;
    },
    close: () => (closed ??= closeAll(server, saver)),
  };
}

/** The options' behaviour switches, as the service model reads them. */
function behavioursOf(options: EmulatorOptions): ServiceBehaviours {
  return resolveBehaviours({
    deleteOperations: options.deleteOperations,
    retryAfter: options.retryAfter,
    poolerFields: options.omitPoolerFields === undefined ? undefined : !options.omitPoolerFields,
    poolerRequests: options.poolerRequests,
    restartRequiresActive: options.restartRequiresActive,
    branchReadyDelayMs: options.branchReadyDelayMs,
    branchMove: options.branchMove,
    pageSize: options.pageSize,
    storePasswords: options.storePasswords,
    revealAfterReset: options.revealAfterReset,
    databaseOwnedUntil: options.databaseOwnedUntil,
  });
}

async function closeAll(server: Server, saver: Saver | undefined): Promise<void> {
  const done = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await done;
  await saver?.flush();
}
