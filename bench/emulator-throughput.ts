/**
 * Throughput of the emulator for authenticated GETs: the emulator must never be what limits a test or a
 * benchmark (target: at least 5,000 requests/s on this machine).
 *
 * The emulator runs in a child process (this same file with `--serve`), so the load generator does not
 * compete with it for one event loop; `--same-process` measures both in one process instead. The client is
 * plain `http` with a keep-alive agent (no axios), `--concurrency` requests in flight at all times.
 *
 *   node dist/bench/emulator-throughput.js [--seconds 3] [--rounds 3] [--concurrency 32] [--min 5000]
 *
 * Prints each round, then the median and the spread; exits 1 when the median is under `--min`, or when any
 * response was not a 200 (a 429 would mean the rate limit was not off; anything else is an emulator bug).
 */
import { fork, type ChildProcess } from "child_process";
import * as http from "http";
import { startEmulator } from "../emulator";

interface Target {
  baseUrl: string;
  apiKey: string;
  projectId: string;
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Child mode: start the emulator with the rate limit off, hand its address to the parent, serve until killed. */
async function serve(): Promise<void> {
  const emulator = await startEmulator({ port: 0, rateLimit: false, log: () => undefined });
  const target: Target = { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, projectId: emulator.projectId };
  process.send?.(target);
  process.on("disconnect", () => void emulator.close().then(() => process.exit(0)));
}

function startChild(): Promise<{ target: Target; child: ChildProcess }> {
  const child = fork(__filename, ["--serve"], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (target) => resolve({ target: target as Target, child }));
    child.once("exit", (code) => reject(new Error(`emulator process exited with ${code} before it was ready`)));
  });
}

interface Round {
  requests: number;
  errors: Map<string, number>;
  seconds: number;
}

function get(agent: http.Agent, url: URL, path: string, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        agent,
        headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" },
      },
      (res) => {
        res.resume(); // drain: the body is not the point, the emulator still had to produce it
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** One round: `concurrency` loops, each sending its next GET as soon as the previous one answered. */
async function round(target: Target, concurrency: number, seconds: number): Promise<Round> {
  const url = new URL(target.baseUrl);
  const base = url.pathname.replace(/\/$/, "");
  const paths = [`${base}/projects/${target.projectId}/endpoints`, `${base}/api_keys`];
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const result: Round = { requests: 0, errors: new Map(), seconds };
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const loop = async (worker: number): Promise<void> => {
    for (let i = worker; process.hrtime.bigint() < deadline; i++) {
      let outcome: string;
      try {
        const status = await get(agent, url, paths[i % paths.length], target.apiKey);
        outcome = status === 200 ? "ok" : `HTTP ${status}`;
      } catch (error) {
        outcome = (error as NodeJS.ErrnoException).code ?? String(error);
      }
      if (outcome === "ok") result.requests++;
      else result.errors.set(outcome, (result.errors.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => loop(w)));
  result.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return result;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<number> {
  const seconds = option("seconds", 3);
  const rounds = option("rounds", 3);
  const concurrency = option("concurrency", 32);
  const min = option("min", 5000);
  const sameProcess = process.argv.includes("--same-process");
  let child: ChildProcess | undefined;
  let close = async (): Promise<void> => undefined;
  let target: Target;
  if (sameProcess) {
    const emulator = await startEmulator({ port: 0, rateLimit: false, log: () => undefined });
    target = { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, projectId: emulator.projectId };
    close = () => emulator.close();
  } else {
    ({ target, child } = await startChild());
  }
  const mode = sameProcess ? "same process" : "emulator in a child process";
  console.log(`emulator throughput: authenticated GETs, concurrency ${concurrency}, ${rounds} x ${seconds}s, ${mode}`);
  await round(target, concurrency, Math.min(1, seconds)); // warm-up: JIT, sockets
  const rates: number[] = [];
  let failures = 0;
  for (let r = 1; r <= rounds; r++) {
    const result = await round(target, concurrency, seconds);
    const rate = result.requests / result.seconds;
    rates.push(rate);
    const errors = [...result.errors].map(([k, n]) => `${k} x${n}`).join(", ");
    failures += [...result.errors.values()].reduce((a, b) => a + b, 0);
    console.log(`  round ${r}: ${Math.round(rate)} requests/s${errors ? ` (errors: ${errors})` : ""}`);
  }
  await close();
  child?.disconnect();
  const med = median(rates);
  const spread = Math.max(...rates) - Math.min(...rates);
  console.log(
    `median ${Math.round(med)} requests/s, spread ${Math.round(spread)} (${Math.round(Math.min(...rates))}..${Math.round(Math.max(...rates))}), target >= ${min}`,
  );
  if (failures > 0) console.error(`FAIL: ${failures} responses were not 200`);
  if (med < min) console.error(`FAIL: median ${Math.round(med)} requests/s is under ${min}`);
  return failures > 0 || med < min ? 1 : 0;
}

if (process.argv.includes("--serve")) {
  serve().catch((error) => {
    console.error(error);
    process.exit(2);
  });
} else {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(2);
    },
  );
}
