import { badRequest } from "./errors";

/**
 * Cursor paging as the real service does it: an opaque, non-empty cursor (the position after the last item
 * returned); clients page until a page is shorter than `limit`. Keyset on a sequence number, so items created
 * or deleted between pages are neither skipped nor repeated.
 */
export function page<T extends { seq: number }>(
  items: T[],
  rawCursor: string | null,
  limit: number,
  descending = false,
): { items: T[]; cursor: string } {
  let after: number | undefined;
  if (rawCursor !== null && rawCursor !== "") {
    if (!/^\d{1,16}$/.test(rawCursor)) throw badRequest("cursor is not a cursor this service returned");
    after = Number(rawCursor);
  }
  const sorted = [...items].sort((a, b) => (descending ? b.seq - a.seq : a.seq - b.seq));
  const rest =
    after === undefined
      ? sorted
      : sorted.filter((x) => (descending ? x.seq < (after as number) : x.seq > (after as number)));
  const out = rest.slice(0, limit);
  const last = out[out.length - 1];
  const cursor = last ? String(last.seq) : (rawCursor ?? (descending ? "0" : String(Number.MAX_SAFE_INTEGER)));
  return { items: out, cursor: cursor === "" ? "0" : cursor };
}

/**
 * The page size of a request to a route that pages and gives no `limit`: the emulator's `pageSize` when set (tests
 * use small pages so that a client reading one page fails them), else the route's default (`undefined`: all).
 */
export function defaultLimit<D extends number | undefined>(
  pageSize: number | undefined,
  routeDefault: D,
  max: number,
): number | D {
  return pageSize === undefined ? routeDefault : Math.min(pageSize, max);
}
