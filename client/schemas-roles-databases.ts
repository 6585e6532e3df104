/**
 * zod schemas of a branch's Postgres roles and databases, from the official full OpenAPI document
 * (shared/reference/neon-openapi.yaml: components `Role`, `RoleCreateRequest`, `RolePasswordResponse`, `Database`,
 * `DatabaseCreateRequest`, `DatabaseUpdateRequest`, and the `*Operations` envelopes), by schemas-branches.ts's rules.
 *
 * Passwords: `Role.password` and `RolePasswordResponse.password` are returned to the caller and nowhere else
 * (schemas-branches.ts says how).
 */
import { z } from "zod";
import { Operation } from "./schemas";

const timestamp = z.string();
const operations = z.array(Operation);

// ---- roles ----------------------------------------------------------------------------------------------------

/** A Postgres role (`Role`). `password` only where the service shows it (create, reset). */
export const Role = z.object({
  branch_id: z.string(),
  name: z.string(),
  password: z.string().optional(),
  protected: z.boolean().optional(),
  /** `password`, `oauth` or `no_login`. */
  authentication_method: z.string().optional(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Role = z.infer<typeof Role>;

/** The inner `role` object of a create: the name (at most 63 bytes) and whether it cannot log in. */
export const RoleCreate = z.object({ name: z.string().min(1), no_login: z.boolean().optional() });
export type RoleCreate = z.infer<typeof RoleCreate>;
export const RoleCreateRequest = z.object({ role: RoleCreate });
export type RoleCreateRequest = z.infer<typeof RoleCreateRequest>;

export const RoleResponse = z.object({ role: Role });
export const RolesResponse = z.object({ roles: z.array(Role) });
export const RoleOperations = z.object({ role: Role, operations });
export type RoleOperations = z.infer<typeof RoleOperations>;
export const RolePasswordResponse = z.object({ password: z.string() });

// ---- databases ------------------------------------------------------------------------------------------------

/** A database (`Database`): its id is a number; the API addresses it by name. */
export const Database = z.object({
  id: z.number().int(),
  branch_id: z.string(),
  name: z.string(),
  owner_name: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Database = z.infer<typeof Database>;

export const DatabaseCreate = z.object({ name: z.string().min(1), owner_name: z.string().min(1) });
export type DatabaseCreate = z.infer<typeof DatabaseCreate>;
export const DatabaseCreateRequest = z.object({ database: DatabaseCreate });
export type DatabaseCreateRequest = z.infer<typeof DatabaseCreateRequest>;

/** The fields to change: a new name, a new owner (a role of the branch). */
export const DatabaseUpdate = z.object({
  name: z.string().min(1).optional(),
  owner_name: z.string().min(1).optional(),
});
export type DatabaseUpdate = z.infer<typeof DatabaseUpdate>;
export const DatabaseUpdateRequest = z.object({ database: DatabaseUpdate });
export type DatabaseUpdateRequest = z.infer<typeof DatabaseUpdateRequest>;

export const DatabaseResponse = z.object({ database: Database });
export const DatabasesResponse = z.object({ databases: z.array(Database) });
export const DatabaseOperations = z.object({ database: Database, operations });
export type DatabaseOperations = z.infer<typeof DatabaseOperations>;
