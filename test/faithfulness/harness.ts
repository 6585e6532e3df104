/**
 * Shared set-up of the faithfulness suites: a real emulator on port 0 (rate limit off, manual clock so that
 * operations finish when a test says so), a contract-checking HTTP client, and small readers of the world.
 */
import { startEmulator } from "../../emulator";
import { ContractRecorder, RawHttp } from "../openapi/recorder";

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;
export type EmulatorOptions = NonNullable<Parameters<typeof startEmulator>[0]>;

export interface World {
  emulator: Emulator;
  http: RawHttp;
  recorder: ContractRecorder;
  close(): Promise<void>;
}

/** Starts an emulator for one suite. Defaults: no rate limit, manual clock, silent log. */
export async function startWorld(options: EmulatorOptions = {}): Promise<World> {
  const emulator = await startEmulator({
    port: 0,
    rateLimit: false,
    manualClock: true,
    log: () => undefined,
    ...options,
  });
  const recorder = new ContractRecorder();
  const http = new RawHttp(emulator.baseUrl, emulator.apiKey, recorder);
  return {
    emulator,
    http,
    recorder,
    async close() {
      http.close();
      await emulator.close();
    },
  };
}

/** Moves the manual clock far enough for every operation in flight to finish (under any autosuspend delay). */
export function settle(world: World, ms = 30_000): void {
  world.emulator.clock.advance(ms);
}

export interface EndpointBody {
  id: string;
  branch_id: string;
  type: string;
  current_state: string;
  pending_state?: string;
  autoscaling_limit_min_cu: number;
  autoscaling_limit_max_cu: number;
  suspend_timeout_seconds: number;
  [key: string]: unknown;
}

export interface OperationBody {
  id: string;
  action: string;
  status: string;
  endpoint_id?: string;
  [key: string]: unknown;
}

/** The project's computes, sorted by id: the "world" the bad-input suite compares before and after. */
export async function listEndpoints(world: World, projectId = world.emulator.projectId): Promise<EndpointBody[]> {
  const res = await world.http.request({ method: "GET", path: `/projects/${projectId}/endpoints` });
  if (res.status !== 200) throw new Error(`listing endpoints answered ${res.status}: ${res.text}`);
  return [...(res.body as { endpoints: EndpointBody[] }).endpoints].sort((a, b) => a.id.localeCompare(b.id));
}

/** The account's keys (without `last_used_*`, which every request legitimately changes), sorted by id. */
export async function listKeys(world: World): Promise<unknown[]> {
  const res = await world.http.request({ method: "GET", path: "/api_keys" });
  if (res.status !== 200) throw new Error(`listing keys answered ${res.status}: ${res.text}`);
  return (res.body as { id: number; name: string; created_at: string }[])
    .map(({ id, name, created_at }) => ({ id, name, created_at }))
    .sort((a, b) => a.id - b.id);
}

/** The project's branches: `{id, name}` by name (the default world has main, dev and staging). */
export async function branchesByName(world: World, projectId = world.emulator.projectId): Promise<Map<string, string>> {
  const res = await world.http.request({ method: "GET", path: `/projects/${projectId}/branches` });
  if (res.status !== 200) throw new Error(`listing branches answered ${res.status}: ${res.text}`);
  const branches = (res.body as { branches: { id: string; name: string }[] }).branches;
  return new Map(branches.map((b) => [b.name, b.id]));
}

/**
 * Waits (real time) until no operation of the project is `scheduling` or `running`, so the next compute change
 * is not refused with 423. For emulators on the real clock; with the manual clock use {@link settle}.
 */
export async function waitForOperations(
  world: World,
  projectId = world.emulator.projectId,
  budgetMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const res = await world.http.request({ method: "GET", path: `/projects/${projectId}/operations?limit=1000` });
    const ops = (res.body as { operations?: OperationBody[] }).operations ?? [];
    if (!ops.some((o) => o.status === "scheduling" || o.status === "running")) return;
    if (Date.now() > deadline) throw new Error(`operations still in progress after ${budgetMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
