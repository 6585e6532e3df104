/**
 * Fault injection, deterministic from a seed: server errors, a reset before the response, a slow response,
 * the ambiguous write (applied, response lost), a 524 proxy timeout (applied, then 524: api.md "Transient
 * errors": the outcome is unknown), 423 and 429. Random faults come from a seeded PRNG; scripted
 * rules target the next matching requests. Lets a client prove its retry and ambiguity handling.
 */
import { ApiError, LOCKED_MESSAGE, tooManyRequests } from "./errors";

export type FaultKind = "500" | "502" | "503" | "524" | "reset" | "slow" | "ambiguous" | "423" | "429";
export const FAULT_KINDS: FaultKind[] = ["500", "502", "503", "524", "reset", "slow", "ambiguous", "423", "429"];
/** Random faults draw from these unless `kinds` is given (524 only when named, so seeded runs keep their draws). */
export const DEFAULT_RANDOM_KINDS: FaultKind[] = FAULT_KINDS.filter((k) => k !== "524");

export interface FaultOptions {
  seed?: number;
  rate?: number;
  kinds?: FaultKind[];
  /** Delay of a random `slow` fault, real milliseconds; default 1500. */
  slowMs?: number;
}

export interface FaultRule {
  method?: string;
  /** Substring of, or pattern for, the path after /api/v2. */
  path?: string | RegExp;
  kind: FaultKind;
  times?: number;
  delayMs?: number;
}

export interface Fault {
  kind: FaultKind;
  delayMs: number;
}

/** Faults answered with an error status instead of running the request. */
const ERROR_STATUS: Partial<Record<FaultKind, number>> = { "500": 500, "502": 502, "503": 503, "423": 423, "429": 429 };

/** True for a fault answered with its status before the request runs. */
export const isErrorFault = (kind: FaultKind): boolean => ERROR_STATUS[kind] !== undefined;

/** The error an error fault answers (423 with the real message; 429 with Retry-After only when the service sends it). */
export function faultError(kind: FaultKind, retryAfter: boolean): ApiError {
  if (kind === "423") return new ApiError(423, LOCKED_MESSAGE);
  if (kind === "429") return tooManyRequests(retryAfter ? 1 : undefined);
  return new ApiError(ERROR_STATUS[kind] ?? 500, kind === "503" ? "service unavailable" : "internal server error");
}

/** The message of a 524 fault: the proxy gave up waiting for the service, which may still have applied the write. */
export const PROXY_TIMEOUT = "a timeout occurred: the origin did not answer the proxy in time (524)";

/** mulberry32: a tiny, fast, seedable PRNG; the same seed gives the same fault sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private readonly rules: (FaultRule & { left: number })[] = [];
  private readonly random: () => number;
  private readonly rate: number;
  private readonly kinds: FaultKind[];
  private readonly slowMs: number;
  private count = 0;

  constructor(options: FaultOptions = {}) {
    this.random = mulberry32(options.seed ?? 1);
    this.rate = options.rate ?? 0;
    this.kinds = options.kinds && options.kinds.length ? options.kinds : DEFAULT_RANDOM_KINDS;
    this.slowMs = options.slowMs ?? 1500;
    for (const k of this.kinds) if (!FAULT_KINDS.includes(k)) throw new RangeError(`unknown fault kind ${k}`);
  }

  add(rule: FaultRule): void {
    if (!FAULT_KINDS.includes(rule.kind)) throw new RangeError(`unknown fault kind ${String(rule.kind)}`);
    this.rules.push({ ...rule, left: rule.times ?? 1 });
  }

  clear(): void {
    this.rules.length = 0;
  }

  injected(): number {
    return this.count;
  }

  /** The fault for this request, if any: a scripted rule first, then the random draw. */
  pick(method: string, path: string): Fault | undefined {
    const i = this.rules.findIndex((r) => matches(r, method, path));
    if (i >= 0) {
      const r = this.rules[i];
      if (--r.left <= 0) this.rules.splice(i, 1);
      this.count++;
      return { kind: r.kind, delayMs: r.delayMs ?? this.slowMs };
    }
    if (this.rate <= 0 || this.random() >= this.rate) return undefined;
    const kinds = method === "GET" ? this.kinds.filter((k) => k !== "423") : this.kinds;
    if (!kinds.length) return undefined;
    this.count++;
    return { kind: kinds[Math.floor(this.random() * kinds.length)], delayMs: this.slowMs };
  }
}

/** True when a scripted rule (a fault, a scripted reply) targets this request. */
export function matches(r: Pick<FaultRule, "method" | "path">, method: string, path: string): boolean {
  if (r.method && r.method.toUpperCase() !== method) return false;
  if (r.path === undefined) return true;
  return typeof r.path === "string" ? path.includes(r.path) : r.path.test(path);
}

/** Parses the CLI form `seed=N,rate=R,kinds=500+reset`. */
export function parseFaultSpec(spec: string): FaultOptions {
  const out: FaultOptions = {};
  for (const part of spec.split(",").filter(Boolean)) {
    const [k, v = ""] = part.split("=");
    if (k === "seed") out.seed = Number(v);
    else if (k === "rate") out.rate = Number(v);
    else if (k === "kinds") out.kinds = v.split("+") as FaultKind[];
    else if (k === "slow") out.slowMs = Number(v);
    else throw new RangeError(`unknown fault option "${k}" (seed, rate, kinds, slow)`);
  }
  if (out.seed !== undefined && !Number.isFinite(out.seed)) throw new RangeError("faults seed must be a number");
  if (out.rate !== undefined && !(out.rate >= 0 && out.rate <= 1)) throw new RangeError("faults rate must be 0..1");
  return out;
}
