import { badRequest } from "./errors";
import { requireObject } from "./validation";

/**
 * The bodies of the role and database routes (OpenAPI `RoleCreateRequest`, `DatabaseCreateRequest`,
 * `DatabaseUpdateRequest`) and the names they carry. Every failure is a 400 naming the field and the rule.
 */

const show = (v: unknown): string => String(JSON.stringify(v));

/** Postgres identifiers hold at most 63 bytes (OpenAPI `RoleCreateRequest`: "Cannot exceed 63 bytes in length"). */
const MAX_NAME_BYTES = 63;

function pgName(field: string, v: unknown, what: string): string {
  if (typeof v !== "string" || v.length === 0)
    throw badRequest(`${field} must be a non-empty string (the ${what} name)`);
  const bytes = Buffer.byteLength(v, "utf8");
  if (bytes > MAX_NAME_BYTES) {
    throw badRequest(`${field}: ${show(v)} is ${bytes} bytes long; a ${what} name cannot exceed 63 bytes`);
  }
  if (v.includes("\u0000")) throw badRequest(`${field} cannot contain a NUL character`);
  return v;
}

/** Neon docs, Manage roles, "Protected role names": these "cannot be given to a role", nor any name starting with `pg_`. */
export const PROTECTED_ROLE_NAMES = ["neon_superuser", "cloud_admin", "zenith_admin", "public", "none"];

/** A role name: 1..63 bytes, not a protected name, not starting with `pg_` (Neon docs, Manage roles). */
export function roleName(field: string, v: unknown): string {
  const name = pgName(field, v, "role");
  if (name.startsWith("pg_")) {
    throw badRequest(`${field}: ${show(name)} is a protected role name: names starting with pg_ are reserved`);
  }
  if (PROTECTED_ROLE_NAMES.includes(name)) {
    throw badRequest(
      `${field}: ${show(name)} is a protected role name; protected: any name starting with pg_, ` +
        PROTECTED_ROLE_NAMES.join(", "),
    );
  }
  return name;
}

/** Neon docs, Manage databases, "Protected database names": these "cannot be given to a database". */
export const PROTECTED_DATABASE_NAMES = ["postgres", "template0", "template1"];

/** A database name: 1..63 bytes (a Postgres identifier), not a protected name (Neon docs, Manage databases). */
export function databaseName(field: string, v: unknown): string {
  const name = pgName(field, v, "database");
  if (PROTECTED_DATABASE_NAMES.includes(name)) {
    throw badRequest(
      `${field}: ${show(name)} is a protected database name; protected: ${PROTECTED_DATABASE_NAMES.join(", ")}`,
    );
  }
  return name;
}

/** An owner's name as a request carries it; whether the role exists is domain/databases.ts's 404. */
function ownerName(field: string, v: unknown): string {
  if (typeof v !== "string" || v.length === 0)
    throw badRequest(`${field} must be a non-empty string (the owner role's name)`);
  return v;
}

/** `{role: {name, no_login?}}` (OpenAPI `RoleCreateRequest`: `role` and `role.name` required). */
export function parseRoleCreate(body: unknown): { name: string; noLogin: boolean } {
  const role = requireObject(requireObject(body).role, "role");
  if (role.name === undefined) throw badRequest("role.name is required");
  const name = roleName("role.name", role.name);
  if (role.no_login !== undefined && typeof role.no_login !== "boolean") {
    throw badRequest(`role.no_login must be a boolean (true or false), got ${show(role.no_login)}`);
  }
  return { name, noLogin: role.no_login === true };
}

/** `{database: {name, owner_name}}` (OpenAPI `DatabaseCreateRequest`: both required). */
export function parseDatabaseCreate(body: unknown): { name: string; ownerName: string } {
  const db = requireObject(requireObject(body).database, "database");
  if (db.name === undefined) throw badRequest("database.name is required");
  if (db.owner_name === undefined)
    throw badRequest("database.owner_name is required (the role that owns the database)");
  return { name: databaseName("database.name", db.name), ownerName: ownerName("database.owner_name", db.owner_name) };
}

/** `{database: {name?, owner_name?}}` (OpenAPI `DatabaseUpdateRequest`). */
export function parseDatabaseUpdate(body: unknown): { name?: string; ownerName?: string } {
  const db = requireObject(requireObject(body).database, "database");
  const out: { name?: string; ownerName?: string } = {};
  if (db.name !== undefined) out.name = databaseName("database.name", db.name);
  if (db.owner_name !== undefined) out.ownerName = ownerName("database.owner_name", db.owner_name);
  return out;
}
