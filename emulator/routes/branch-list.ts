import { badRequest } from "../errors";
import { renderAnnotation, renderBranch } from "../render";
import type { Reply, RequestContext } from "../router";
import type { Branch } from "../types";
import { defaultLimit } from "../paging";
import { settledProject } from "./gate";

/**
 * GET /projects/{id}/branches (OpenAPI `listProjectBranches`) → `{branches, annotations, pagination}`: `search` (part
 * of a name or id), `sort_by` `name` | `created_at` | `updated_at` (default `updated_at`), `sort_order` `asc` | `desc`
 * (default `desc`), `limit` 1..10000 (`LimitParam`), `cursor` (`pagination.next` of the page before).
 * - `annotations` maps the id of each listed branch that has an annotation to it (the document's example lists three
 *   branches and one annotation).
 * - Without `limit` every matching branch is listed (**guess**: no default limit is documented, and clients list a
 *   project's branches without one), or the emulator's `pageSize` when set. With it, `pagination.next` is set while more remain, absent on the last page
 *   (**guess**: the document shows `next` but not how the last page ends); the cursor keeps the sort it was made with.
 * - Ties in the sort keep the order of creation, reversed with `desc` (**guess**).
 */
const SORT_BY = ["name", "created_at", "updated_at"] as const;
type SortBy = (typeof SORT_BY)[number];
type Order = "asc" | "desc";

interface Position {
  sortBy: SortBy;
  order: Order;
  key: string | number;
  seq: number;
}

const keyOf = (b: Branch, by: SortBy): string | number =>
  by === "name" ? b.name : by === "created_at" ? b.createdAt : b.updatedAt;

function compare(a: { key: string | number; seq: number }, b: { key: string | number; seq: number }): number {
  if (a.key < b.key) return -1;
  if (a.key > b.key) return 1;
  return a.seq - b.seq;
}

function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify([p.sortBy, p.order, p.key, p.seq])).toString("base64url");
}

function decodeCursor(raw: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const ok =
    Array.isArray(parsed) &&
    parsed.length === 4 &&
    SORT_BY.includes(parsed[0]) &&
    (parsed[1] === "asc" || parsed[1] === "desc") &&
    (typeof parsed[2] === "string" || typeof parsed[2] === "number") &&
    typeof parsed[3] === "number";
  if (!ok) throw badRequest("cursor is not a cursor this service returned (pass pagination.next as it came)");
  const [sortBy, order, key, seq] = parsed as [SortBy, Order, string | number, number];
  return { sortBy, order, key, seq };
}

function oneOf<T extends string>(field: string, raw: string | null, allowed: readonly T[]): T | undefined {
  if (raw === null) return undefined;
  if (!allowed.includes(raw as T))
    throw badRequest(`${field}: ${JSON.stringify(raw)} is not allowed; allowed values: ${allowed.join(", ")}`);
  return raw as T;
}

function limitOf(raw: string | null): number | undefined {
  if (raw === null) return undefined;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 10000) throw badRequest("limit must be an integer 1..10000");
  return n;
}

export function branchList(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const q = ctx.query;
  const cursorRaw = q.get("cursor");
  const after = cursorRaw ? decodeCursor(cursorRaw) : undefined;
  const sortBy = oneOf("sort_by", q.get("sort_by"), SORT_BY) ?? after?.sortBy ?? "updated_at";
  const order = oneOf("sort_order", q.get("sort_order"), ["asc", "desc"] as const) ?? after?.order ?? "desc";
  if (after && (after.sortBy !== sortBy || after.order !== order)) {
    throw badRequest(`cursor was made for sort_by=${after.sortBy}&sort_order=${after.order}; send the same or none`);
  }
  const limit = limitOf(q.get("limit")) ?? defaultLimit(ctx.state.behaviours.pageSize, undefined, 10000);
  const search = q.get("search")?.toLowerCase();
  const sign = order === "asc" ? 1 : -1;
  const rows = ctx.state.store
    .branchesOf(project.id)
    .filter((b) => !search || b.name.toLowerCase().includes(search) || b.id.includes(search))
    .map((b) => ({ b, key: keyOf(b, sortBy), seq: b.seq }))
    .sort((x, y) => sign * compare(x, y))
    .filter((row) => !after || sign * compare(row, after) > 0);
  const shown = limit === undefined ? rows : rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const more = limit !== undefined && rows.length > shown.length && last !== undefined;
  const annotations: Record<string, unknown> = {};
  for (const { b } of shown) if (b.annotation) annotations[b.id] = renderAnnotation(b);
  const pagination = {
    ...(more ? { next: encodeCursor({ sortBy, order, key: last.key, seq: last.seq }) } : {}),
    sort_by: sortBy,
    sort_order: order,
  };
  return { status: 200, body: { branches: shown.map(({ b }) => renderBranch(b, ctx.now)), annotations, pagination } };
}
