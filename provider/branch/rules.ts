/**
 * Branch's rules that one row of its declaration cannot say alone: how its points in time and LSNs are read (strictly
 * as the API states them, so that a value the service would refuse, or read another way, is refused at preview) and
 * compared (two spellings of one instant or LSN never make a diff), and Check's rules over several inputs. Sources:
 * RFC 3339, the OpenAPI document (`BranchCreateRequest`, `AnnotationValueData`, `init_source`) and Neon's docs (Branch
 * expiration). Reasons name the allowed values and never echo free text (a name or an annotation may have been a
 * secret in the program).
 */
import { isUnknown } from "../shared/unknown";
import { CheckFailure, isStringMap, shown, Validator } from "../shared/validators";

type Props = Record<string, unknown>;

/** RFC 3339 (section 5.6): a date, `T`, a time with optional fractional seconds, and a zone (`Z` or `±hh:mm`). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The longest expiry ahead of now: 30 days (Neon docs, Branch expiration, "maximum expiration is 30 days"). */
export const MAX_EXPIRY_MS = 30 * 24 * 3600 * 1000;

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

/** True when the timestamp has fractional seconds (the service keeps only seconds of an expiry). */
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

/** An RFC 3339 timestamp with a time zone (`parentTimestamp`, `expiresAt`). */
export const isTimestamp: Validator = (v) =>
  instantOf(v) !== undefined
    ? undefined
    : `must be an RFC 3339 timestamp with a time zone, such as 2025-06-09T18:02:16Z or 2025-06-09T13:02:16-05:00; got ${shown(v)}`;

/** `AnnotationValueData`: at most 50 properties, each a string. */
export const isAnnotations: Validator = (v) => {
  const problem = isStringMap(v);
  if (problem) return problem;
  const count = Object.keys(v as object).length;
  return count <= 50
    ? undefined
    : `must have at most 50 entries (Neon's limit for a branch's annotations); got ${count}`;
};

/** Check's rules over several inputs, as of `now` (epoch ms), for inputs each of whose rows accepts its value. */
export function severalInputs(news: Props, now: number): CheckFailure[] {
  return [...pointInTime(news, now), ...expiry(news, now), ...resetOfRoot(news)];
}

const given = (news: Props, property: string) => news[property] !== undefined && !isUnknown(news[property]);

/** One point on the parent, named once, and not in the future (a branch cannot start from data not yet written). */
function pointInTime(news: Props, now: number): CheckFailure[] {
  if (given(news, "parentLsn") && given(news, "parentTimestamp")) {
    return [
      {
        property: "parentTimestamp",
        reason: "cannot be set with parentLsn: both name the point on the parent the branch starts from; set one",
      },
    ];
  }
  const at = given(news, "parentTimestamp") ? instantOf(news.parentTimestamp) : undefined;
  if (at === undefined || at <= now) return [];
  return [
    {
      property: "parentTimestamp",
      reason: `must not be in the future (it is ${spanOf(at - now)} ahead): the parent has no data there yet`,
    },
  ];
}

/**
 * `expiresAt`: whole seconds (the service keeps only seconds: another value would differ from the program's on every
 * up), in the future, at most 30 days ahead, and not on a protected branch (Neon docs, Branch expiration,
 * "Timestamp format requirements" and "Restrictions").
 */
function expiry(news: Props, now: number): CheckFailure[] {
  if (!given(news, "expiresAt")) return [];
  const fail = (reason: string): CheckFailure[] => [{ property: "expiresAt", reason }];
  const text = String(news.expiresAt);
  const at = instantOf(text) as number;
  if (hasFraction(text)) return fail(`must be whole seconds, such as 2025-06-09T18:02:16Z (Neon keeps only seconds)`);
  if (at <= now) {
    return fail(
      `must be in the future; it was ${spanOf(now - at)} ago (the branch is deleted at that time: set a later time, ` +
        `or remove expiresAt)`,
    );
  }
  if (at > now + MAX_EXPIRY_MS) {
    return fail(`must be at most 30 days ahead (Neon's limit); it is ${spanOf(at - now)} ahead`);
  }
  if (news.protected === true) {
    return fail("cannot be set on a protected branch (protected: true): Neon does not expire a protected branch");
  }
  return [];
}

/** A reset takes the parent's latest data: a schema-only branch has no parent (OpenAPI, `init_source`). */
function resetOfRoot(news: Props): CheckFailure[] {
  if (news.resetTriggers === undefined || news.initSource !== "schema-only") return [];
  return [
    {
      property: "resetTriggers",
      reason:
        "cannot be used on a schema-only branch (initSource: schema-only): it is a root branch with no parent to " +
        "reset from; remove resetTriggers, or replace the branch to start it again",
    },
  ];
}
