import { badRequest } from "./errors";

/**
 * Time points and LSNs in requests: the formats the OpenAPI document and Neon's docs state, checked strictly so that a
 * client's malformed value is refused here as a validation error rather than silently read some other way.
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

const show = (v: unknown): string => String(JSON.stringify(v));

/**
 * An RFC 3339 date-time (OpenAPI `format: date-time`) with its time zone, `Z` or a numeric offset (not both): epoch ms.
 * A value that matches the pattern but names no real instant (February 30, hour 24) is refused too.
 */
export function dateTime(field: string, v: unknown, example = "2025-06-09T18:02:16Z"): number {
  const m = typeof v === "string" ? DATE_TIME.exec(v) : null;
  const ms = m ? Date.parse(v as string) : NaN;
  if (!m || !Number.isFinite(ms) || !sameCalendarDay(m, ms)) {
    throw badRequest(
      `${field}: ${show(v)} is not an RFC 3339 timestamp with a time zone (such as ${example}, or with an offset like ` +
        `2025-06-09T13:02:16-05:00)`,
    );
  }
  return ms;
}

/** False for a date the parser rolled over (2025-02-30 → March 2): the digits must name the day they say. */
function sameCalendarDay(m: RegExpExecArray, ms: number): boolean {
  const [, y, mo, d, h, mi, s, , zone] = m;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  const offsetMin = /^[Zz]$/.test(zone)
    ? 0
    : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  const local = new Date(ms + offsetMin * 60_000);
  return (
    local.getUTCFullYear() === Number(y) && local.getUTCMonth() + 1 === Number(mo) && local.getUTCDate() === Number(d)
  );
}

/** Longest `expires_at` ahead of now: 30 days (Neon docs, Branch expiration, "Timestamp format requirements"). */
export const MAX_EXPIRATION_MS = 30 * 24 * 3600 * 1000;

/**
 * `expires_at` (OpenAPI `BranchCreateRequest`, `BranchUpdateRequest`: RFC 3339 "with precision up to seconds"). Neon
 * docs, Branch expiration: the time zone is required, "fractional seconds are optional but only second precision is
 * stored", the "timestamp must be in the future", and the "maximum expiration is 30 days from the current time".
 */
export function expiresAt(field: string, v: unknown, now: number): number {
  const at = Math.floor(dateTime(field, v) / 1000) * 1000;
  if (at <= now) {
    throw badRequest(`${field}: ${show(v)} is not in the future (now ${iso(now)}); a branch can only expire later`);
  }
  if (at > now + MAX_EXPIRATION_MS) {
    throw badRequest(
      `${field}: ${show(v)} is more than 30 days ahead; the latest allowed is ${iso(now + MAX_EXPIRATION_MS)}`,
    );
  }
  return at;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A Postgres LSN as the service shows it, two hex numbers of up to 8 digits: `0/1DE2850`. */
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

export function lsn(field: string, v: unknown): string {
  if (typeof v !== "string" || !LSN.test(v)) {
    throw badRequest(`${field}: ${show(v)} is not a Log Sequence Number; expected two hex numbers like 0/1DE2850`);
  }
  return v.toUpperCase();
}

/**
 * The LSN the emulator reports as a branching point when the request named none: it keeps no WAL, so it is a synthetic
 * number that grows with the world's sequence (**guess**: any well-formed LSN would do; a client must not compute
 * with it).
 */
export function syntheticLsn(seq: number): string {
  return `0/${(0x1a00000 + seq * 0x1f8).toString(16).toUpperCase()}`;
}

/**
 * A point in time on a source branch (`parent_timestamp`, `source_timestamp`: "ISO 8601 format; for example:
 * `2024-02-26T12:00:00Z`"). Neon docs, Manage branches: "You can only specify a date and time or LSN value that falls
 * within your history retention window", so a time after now, or before the source branch existed, answers 400 (the
 * status and the creation bound are a **guess**; the retention window itself is not modelled).
 */
export function pointInTime(
  field: string,
  v: unknown,
  now: number,
  source: { name: string; createdAt: number },
): number {
  const at = dateTime(field, v, "2024-02-26T12:00:00Z");
  if (at > now)
    throw badRequest(`${field}: ${show(v)} is in the future (now ${iso(now)}); a branch has no data there yet`);
  if (at < source.createdAt) {
    throw badRequest(
      `${field}: ${show(v)} is before branch ${source.name} was created (${iso(source.createdAt)}): it has no history there`,
    );
  }
  return at;
}
