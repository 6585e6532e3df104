/**
 * The key never leaks: drive every kind of failure, then search every error (message, stack, JSON, enumerable
 * properties, util.inspect) and every log line for the key. Guards against axios errors serialising
 * `config.headers.Authorization` into Pulumi's output.
 */
import { inspect } from "util";
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { resolveConfig } from "./config";
import { clientFor, rejection, start } from "./testing.test.helpers";

let emu: Emulator;
const lines: string[] = [];
const errors: unknown[] = [];
const WRONG_KEY = "wrong-key-that-must-not-leak-0123456789abcdef";

beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

function dump(error: unknown): string {
  const e = error as Error & Record<string, unknown>;
  const values = Object.keys(e).map((k) => `${k}=${safe(e[k])}`);
  return [e.message, e.stack, safe(e), values.join(" "), inspect(e, { depth: 10, showHidden: true })].join("\n");
}

function safe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

async function collect(promise: Promise<unknown>): Promise<void> {
  errors.push(await rejection(promise));
}

it("no error and no log line ever contains the key", async () => {
  const log = (line: string) => lines.push(line);
  const client: NeonClient = clientFor(emu, { log, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
  const projectId = emu.projectId;
  const main = (await client.branches.list(projectId)).find((b) => b.name === "main")!;
  const endpoints = `/projects/${projectId}/endpoints`;

  await collect(clientFor(emu, { apiKey: WRONG_KEY, log }).apiKeys.list()); // 401
  await collect(client.endpoints.get(projectId, "ep-missing-000000")); // 404
  await collect(client.endpoints.create(projectId, { branch_id: main.id, type: "read_write" })); // 409
  emu.faults.add({ method: "GET", path: endpoints, kind: "500", times: 2 });
  await collect(client.endpoints.list(projectId)); // 500s, retries exhausted
  emu.faults.add({ method: "GET", path: endpoints, kind: "reset", times: 2 });
  await collect(client.endpoints.list(projectId)); // resets
  emu.faults.add({ method: "POST", path: endpoints, kind: "ambiguous", times: 1 });
  await collect(client.endpoints.create(projectId, { branch_id: main.id, type: "read_only" })); // ambiguous
  emu.faults.add({ method: "POST", path: endpoints, kind: "slow", delayMs: 500, times: 1 });
  const impatient = clientFor(emu, { log, timeoutMs: 50 });
  await collect(impatient.endpoints.create(projectId, { branch_id: main.id, type: "read_only" })); // timeout
  await new Promise((resolve) => setTimeout(resolve, 500)); // the emulator's slow timer
  emu.operations.stickNext({ action: "start_compute" });
  const short = clientFor(emu, { log, wait: { timeoutMs: 150, initialIntervalMs: 5, maxIntervalMs: 20 } });
  await collect(short.endpoints.create(projectId, { branch_id: main.id, type: "read_only" })); // wait_timeout
  await collect(Promise.resolve().then(() => resolveConfig(undefined, undefined, {}))); // config

  const kinds = errors.map((e) => (e as { kind: string }).kind);
  expect(kinds).toEqual([
    "auth",
    "not_found",
    "conflict",
    "server",
    "network",
    "ambiguous",
    "ambiguous",
    "wait_timeout",
    "config",
  ]);
  expect(lines.length).toBeGreaterThan(10);
  const haystack = [...errors.map(dump), ...lines, safe(client), inspect(client, { depth: 2 })].join("\n");
  for (const secret of [emu.apiKey, WRONG_KEY]) {
    expect(haystack.split(secret).length - 1).toBe(0);
  }
  expect(haystack).not.toMatch(/Bearer\s+(?!\[REDACTED\])\S/);
  expect(haystack).not.toMatch(/authorization/i);
});
