/**
 * Points in a database's history as the API names them: an instant (RFC 3339) and a Log Sequence Number (LSN), read
 * strictly as the API states them (a value the service would refuse, or read another way, is refused at preview) and
 * compared by value (two spellings of one instant or one LSN are one value, so they never make a diff); and how a span
 * of time is said in a message. Sources: RFC 3339 (section 5.6), and the OpenAPI document's LSNs (`0/1DE2850`).
 * Reasons name the allowed form and never echo free text (a value may have been a secret in the program).
 */
import { shown, Validator } from "./validators";

/** RFC 3339 (section 5.6): a date, `T`, a time with optional fractional seconds, and a zone (`Z` or `±hh:mm`). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The instant an RFC 3339 timestamp names (epoch ms), or undefined when it is not one (or names no real date). */
export function instantOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return undefined;
  const [, y, mo, d, h, mi, s, , zone] = m;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offsetMin = /^[Zz]$/.test(zone)
    ? 0
    : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  const local = new Date(ms + offsetMin * 60_000);
  const sameDay =
    local.getUTCFullYear() === Number(y) && local.getUTCMonth() + 1 === Number(mo) && local.getUTCDate() === Number(d);
  return sameDay ? ms : undefined;
}

/** True when the timestamp has fractional seconds (a field the service keeps to the second, an expiry, has none). */
export function hasFraction(value: string): boolean {
  return DATE_TIME.exec(value)?.[7] !== undefined;
}

/**
 * The instant a timestamp names, as text that every spelling of it shares (another zone, `t`, `z`, trailing zeros):
 * whole seconds since the epoch, then the fraction's digits without trailing zeros, to the digit (epoch ms would take
 * two microseconds apart for one instant). Undefined when it is no timestamp.
 */
function instantKey(value: unknown): string | undefined {
  if (instantOf(value) === undefined) return undefined;
  const text = value as string;
  const fraction = (DATE_TIME.exec(text)?.[7] ?? "").slice(1).replace(/0+$/, "");
  return `${Date.parse(text.replace(/\.\d+/, "")) / 1000}.${fraction}`;
}

/** True when both name the same instant (both timestamps), or are equal otherwise. */
export function sameInstant(a: unknown, b: unknown): boolean {
  const [x, y] = [instantKey(a), instantKey(b)];
  return x !== undefined && y !== undefined ? x === y : a === b;
}

/** A Postgres LSN as the API shows it: two hex numbers of up to 8 digits, `0/1DE2850`. */
export const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

/** The two numbers an LSN names, or undefined when it is none. */
function lsnOf(value: unknown): [number, number] | undefined {
  if (typeof value !== "string" || !LSN.test(value)) return undefined;
  const [high, low] = value.split("/").map((hex) => parseInt(hex, 16));
  return [high, low];
}

/** True when both are the same LSN (hex digits in either case, leading zeros or none), or are equal otherwise. */
export function sameLsn(a: unknown, b: unknown): boolean {
  const [x, y] = [lsnOf(a), lsnOf(b)];
  return x !== undefined && y !== undefined ? x[0] === y[0] && x[1] === y[1] : a === b;
}

/** How a span of time is said in a message: "3 minutes", "2 hours", "5 days". */
export function spanOf(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
  ];
  for (const [size, unit] of units) {
    const n = Math.floor(Math.abs(ms) / size);
    if (n < 1) continue;
    const hours = unit === "day" ? Math.floor((Math.abs(ms) % size) / 3_600_000) : 0;
    return `${n} ${unit}${n === 1 ? "" : "s"}${hours > 0 ? ` ${hours} hour${hours === 1 ? "" : "s"}` : ""}`;
  }
  return `${Math.floor(Math.abs(ms) / 1000)} seconds`;
}

/** An RFC 3339 timestamp with a time zone (a Branch's `parentTimestamp` and `expiresAt`). */
export const isTimestamp: Validator = (v) =>
  instantOf(v) !== undefined
    ? undefined
    : `must be an RFC 3339 timestamp with a time zone, such as 2025-06-09T18:02:16Z or 2025-06-09T13:02:16-05:00; got ${shown(v)}`;
