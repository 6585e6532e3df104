/**
 * Shared set-up of the sdk's integration tests: a real emulator on port 0 and a client with millisecond budgets.
 * (Named `*.test.helpers.ts`: not a suite for jest, and excluded from the package by `!dist/**\/*.test.*`.)
 */
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
    retry: { baseDelayMs: 2, maxDelayMs: 50, maxTotalMs: 5_000 },
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
