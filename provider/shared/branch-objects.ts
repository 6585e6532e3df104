/**
 * What the objects of a branch (roles, databases) share: their address (a project and a branch, checked offline as
 * Compute checks them) and their Postgres names.
 *
 * Names: Postgres keeps at most NAMEDATALEN - 1 = 63 bytes of an identifier and silently truncates a longer one
 * (PostgreSQL docs, "Lexical Structure", Identifiers and Key Words), and Neon's OpenAPI says a role name "cannot
 * exceed 63 bytes in length" (RoleCreateRequest). A longer name would be stored under another name than the program's,
 * a permanent diff: it is refused at preview. Neon's reserved names are sourced where they are listed (role/declaration.ts,
 * database/declaration.ts).
 */
import { Validator } from "./validators";

/** Postgres's NAMEDATALEN - 1: the longest identifier, in bytes (UTF-8). */
export const MAX_NAME_BYTES = 63;

/**
 * A Postgres name of 1 to 63 bytes without a NUL character. The value is not echoed (free text may have been a
 * secret in the program, validators.ts `describe`): its length in bytes is.
 */
export function postgresName(what: string): Validator {
  return (value) => {
    if (typeof value !== "string") return `must be a string (the ${what} name)`;
    if (value.length === 0) return `must not be empty (the ${what} name: 1 to ${MAX_NAME_BYTES} bytes)`;
    const bytes = Buffer.byteLength(value, "utf8");
    if (bytes > MAX_NAME_BYTES) {
      return (
        `must be at most ${MAX_NAME_BYTES} bytes long (Postgres keeps no more of a name: NAMEDATALEN - 1); got ` +
        `${bytes} bytes`
      );
    }
    return value.includes("\u0000") ? "must not contain a NUL character" : undefined;
  };
}

/** The address of a role or database: its project and branch, from its inputs or its state. */
export interface BranchAddress {
  projectId: string;
  branchId: string;
}

export function addressOf(props: Record<string, unknown>): BranchAddress {
  return { projectId: String(props.projectId), branchId: String(props.branchId) };
}
