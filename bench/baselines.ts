/**
 * The peers' strategies, written here as plain axios loops with no project lock (as each peer does), so our
 * provider is compared with what users have today. Every fixed delay is a service-time value, divided by the
 * emulator's time scale (see config.ts).
 *
 * - kislerdm (community Terraform provider, and Neon's official fork of it): retries 423/429/500 up to 120 times,
 *   1 s apart; polls each operation every 100 ms with no timeout and never reports a failed one.
 * - neonctl (the official CLI): retries 423 only, 5 times, 3 s apart; does not wait for operations (a command
 *   returns once its request is accepted), so the next change meets the project lock.
 * - official TypeScript SDK: retries 423/429/503 with full-jitter exponential backoff (250 ms base, 10 s cap),
 *   honouring Retry-After, up to 8 retries (peers.md gives no count); polls operations every 1 s, 300 s timeout.
 */
import axios, { AxiosInstance, AxiosResponse } from "axios";
import { Emulator } from "../emulator";
import { BenchConfig, real } from "./config";
import { meter, RunResult } from "./measure";
import { pool, sleep } from "./stats";
import { branchId, projectId } from "./world";

export interface Strategy {
  name: string;
  /** Whether a status is retried, and the service-time delay before retry number `attempt` (0-based). */
  retries: number;
  retryable: (status: number) => boolean;
  delayMs: (attempt: number, retryAfterS: number | undefined) => number;
  /** Service-time poll interval; undefined = the peer does not wait for operations. */
  pollMs?: number;
  /** Service-time wait budget; undefined = none. */
  waitTimeoutMs?: number;
}

export const KISLERDM: Strategy = {
  name: "kislerdm (1 s × 120)",
  retries: 120,
  retryable: (s) => s === 423 || s === 429 || s === 500,
  delayMs: () => 1000,
  pollMs: 100,
};

export const NEONCTL: Strategy = {
  name: "neonctl (3 s × 5)",
  retries: 5,
  retryable: (s) => s === 423,
  delayMs: () => 3000,
};

export const OFFICIAL_SDK: Strategy = {
  name: "official SDK (jitter 250 ms–10 s)",
  retries: 8,
  retryable: (s) => s === 423 || s === 429 || s === 503,
  delayMs: (attempt, retryAfterS) =>
    retryAfterS !== undefined ? retryAfterS * 1000 : Math.random() * Math.min(10_000, 250 * 2 ** attempt),
  pollMs: 1000,
  waitTimeoutMs: 300_000,
};

export const BASELINES = [KISLERDM, NEONCTL, OFFICIAL_SDK];

interface Operation {
  id: string;
  status: string;
}

/** One peer talking to the emulator. */
class Peer {
  constructor(
    private readonly http: AxiosInstance,
    private readonly strategy: Strategy,
    private readonly config: BenchConfig,
  ) {}

  /** Sends with the peer's retries; throws the last response's status when it gives up. */
  async send(method: string, url: string, data?: unknown): Promise<AxiosResponse> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.http.request({ method, url, data });
      if (response.status < 400) return response;
      if (!this.strategy.retryable(response.status) || attempt >= this.strategy.retries) {
        throw new Error(`${method} ${url}: HTTP ${response.status} after ${attempt + 1} attempts`);
      }
      const retryAfter = Number(response.headers["retry-after"]);
      const delay = this.strategy.delayMs(attempt, Number.isFinite(retryAfter) ? retryAfter : undefined);
      await sleep(real(this.config, delay));
    }
  }

  /** Waits for each operation in turn, as the peer does (or returns at once when it does not wait). */
  async wait(project: string, operations: Operation[]): Promise<void> {
    const { pollMs, waitTimeoutMs } = this.strategy;
    if (pollMs === undefined) return;
    const deadline = performance.now() + real(this.config, waitTimeoutMs ?? 600_000);
    for (const op of operations) {
      let status = op.status;
      while (status !== "finished" && status !== "skipped" && status !== "failed") {
        if (performance.now() > deadline) throw new Error(`operation ${op.id} timed out`);
        await sleep(real(this.config, pollMs));
        status = (await this.send("GET", `/projects/${project}/operations/${op.id}`)).data.operation.status;
      }
    }
  }

  async change(method: string, project: string, url: string, data?: unknown): Promise<AxiosResponse> {
    const response = await this.send(method, url, data);
    await this.wait(project, response.data?.operations ?? []);
    return response;
  }
}

function httpFor(emulator: Emulator): AxiosInstance {
  return axios.create({
    baseURL: emulator.baseUrl,
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    validateStatus: () => true,
  });
}

/** The same work as ours (create, resize, destroy `computes` computes, `parallel` at a time) with a peer's strategy. */
export async function runBaseline(
  emulator: Emulator,
  strategy: Strategy,
  config: BenchConfig,
  computes: number,
): Promise<RunResult> {
  const http = httpFor(emulator);
  const peer = new Peer(http, strategy, config);
  const project = projectId(0);
  const ids: (string | undefined)[] = new Array(computes).fill(undefined);
  const done = meter(emulator, config.timeScale);
  const size = (cu: number) => ({ autoscaling_limit_min_cu: cu, autoscaling_limit_max_cu: cu });
  const body = { endpoint: { branch_id: branchId(0), type: "read_only", ...size(0.25) } };
  const stages: ((i: number) => Promise<unknown> | undefined)[] = [
    async (i) =>
      (ids[i] = (await peer.change("POST", project, `/projects/${project}/endpoints`, body)).data.endpoint.id),
    (i) =>
      ids[i]
        ? peer.change("PATCH", project, `/projects/${project}/endpoints/${ids[i]}`, { endpoint: size(0.5) })
        : undefined,
    (i) => (ids[i] ? peer.change("DELETE", project, `/projects/${project}/endpoints/${ids[i]}`) : undefined),
  ];
  let failed = 0;
  for (const stage of stages) {
    const results = await pool(
      config.parallel,
      ids.map((_, i) => async () => stage(i)),
    );
    failed += results.filter((r) => r.status === "rejected").length;
  }
  const notCreated = ids.filter((id) => id === undefined).length;
  const result = done(failed + notCreated * 2, computes * 3);
  await cleanUp(http, project, ids);
  return result;
}

/** Deletes what a failing baseline left behind (after the measurement), so the next run starts clean. */
async function cleanUp(http: AxiosInstance, project: string, ids: (string | undefined)[]): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const list = (await http.get(`/projects/${project}/endpoints`)).data.endpoints as { id: string }[];
    const left = list.filter((e) => ids.includes(e.id));
    if (left.length === 0) return;
    await http.delete(`/projects/${project}/endpoints/${left[0].id}`);
    await sleep(50);
  }
}
