import type { RequestLogEntry } from "./server";

/**
 * The request log behind `Emulator.requests` and `stats()` (index.ts): the latest 200k entries (a long soak or bench
 * must not grow memory without bound) and counts by status.
 */
export class RequestLog {
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
