/**
 * `diff` for Database: pure (no API call, no credentials). What a change does is data (DATABASE_DIFF_RULES); the table
 * in docs/resources.md (Role, Database) is this table. New inputs are compared with the old outputs.
 *
 * A database is renamed and given a new owner in place (PATCH …/databases/{old name}); it cannot move between branches
 * or projects, so that replaces it (a new, empty database first, then the old one deleted).
 */
import { isUnknown } from "../shared/unknown";

/** replace: a new database; patch: one PATCH. */
export type DatabaseChangeEffect = "replace" | "patch";

export const DATABASE_DIFF_RULES: Record<string, DatabaseChangeEffect> = {
  projectId: "replace",
  branchId: "replace",
  name: "patch",
  ownerName: "patch",
};

export interface DatabasePlan {
  changes: boolean;
  replaces: string[];
  /** The properties sent in the PATCH. */
  patch: string[];
}

/** Decides what changing `olds` (old outputs) into `news` (new inputs) does to the database. */
export function planDatabaseChange(olds: Record<string, unknown>, news: Record<string, unknown>): DatabasePlan {
  const changed = Object.keys(DATABASE_DIFF_RULES).filter(
    (property) => news[property] !== undefined && (isUnknown(news[property]) || news[property] !== olds[property]),
  );
  return {
    changes: changed.length > 0,
    replaces: changed.filter((property) => DATABASE_DIFF_RULES[property] === "replace"),
    patch: changed.filter((property) => DATABASE_DIFF_RULES[property] === "patch"),
  };
}
