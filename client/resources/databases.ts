/**
 * Databases of a branch: list, get, create, update (rename, new owner) and delete. Changes run under the project
 * lock and resolve once their operations are done; reads take no lock. A database is addressed by its name, encoded
 * as one path segment (a name may hold spaces or any character).
 */
import { mutateProject } from "../project-lock";
import { Operation } from "../schemas";
import {
  Database,
  DatabaseCreate,
  DatabaseCreateRequest,
  DatabaseOperations,
  DatabaseResponse,
  DatabasesResponse,
  DatabaseUpdate,
  DatabaseUpdateRequest,
} from "../schemas-roles-databases";
import { ClientContext, seg } from "./context";
import { deleteUnderLock } from "./deletes";
import { Recover, settlingLostCreate } from "./recover";

/** A database with the final records of the operations its change started. */
export interface DatabaseWithOperations {
  database: Database;
  operations: Operation[];
}

/** A delete's result: no `database` when it was not there (404 / 204). */
export interface DatabaseDeleted {
  database?: Database;
  operations: Operation[];
}

const DeleteResponse = DatabaseOperations.partial({ database: true });

/** Typed calls of `/projects/{p}/branches/{b}/databases`. */
export class DatabasesApi {
  constructor(private readonly ctx: ClientContext) {}

  /** GET .../databases → the branch's databases. */
  async list(projectId: string, branchId: string): Promise<Database[]> {
    const path = this.databasesPath(projectId, branchId);
    return (await this.ctx.transport.request({ method: "GET", path, schema: DatabasesResponse })).databases;
  }

  /** GET .../databases/{name} → the database (kind `not_found` when it does not exist). */
  async get(projectId: string, branchId: string, name: string): Promise<Database> {
    const path = this.path(projectId, branchId, name);
    return (await this.ctx.transport.request({ method: "GET", path, schema: DatabaseResponse })).database;
  }

  /**
   * POST .../databases (body: `{name, owner_name}` or the whole request); the owner is a role of the branch. With
   * `recover`, a create whose response was lost is settled under the project lock (recover.ts).
   */
  create(
    projectId: string,
    branchId: string,
    body: DatabaseCreate | DatabaseCreateRequest,
    options: { recover?: Recover<Database> } = {},
  ): Promise<DatabaseWithOperations> {
    const request = "database" in body ? body : { database: body };
    const send = this.sender("POST", this.databasesPath(projectId, branchId), request);
    const answer = async (database: Database) => ({
      database,
      operations: await this.ctx.branchOperationsOf(projectId, branchId),
    });
    return this.mutate(projectId, settlingLostCreate(send, options.recover, answer));
  }

  /** PATCH .../databases/{name} (body: the fields to change, or the whole request): rename, or a new owner. */
  update(
    projectId: string,
    branchId: string,
    name: string,
    body: DatabaseUpdate | DatabaseUpdateRequest,
  ): Promise<DatabaseWithOperations> {
    const request = "database" in body && typeof body.database === "object" ? body : { database: body };
    return this.mutate(projectId, this.sender("PATCH", this.path(projectId, branchId, name), request));
  }

  /** DELETE .../databases/{name}; a database that was not there (404 or 204) resolves without `database`. */
  delete(projectId: string, branchId: string, name: string): Promise<DatabaseDeleted> {
    return deleteUnderLock(this.ctx, {
      projectId,
      path: this.path(projectId, branchId, name),
      schema: DeleteResponse,
      resourceId: name,
      read: () => this.get(projectId, branchId, name),
      leftovers: () => this.ctx.branchOperationsOf(projectId, branchId),
    });
  }

  private sender(method: "POST" | "PATCH", path: string, body: unknown): () => Promise<DatabaseWithOperations> {
    return () => this.ctx.transport.request({ method, path, body, schema: DatabaseOperations });
  }

  private mutate(projectId: string, send: () => Promise<DatabaseWithOperations>): Promise<DatabaseWithOperations> {
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      send,
      (result) => result.database.name,
    );
  }

  private databasesPath(projectId: string, branchId: string): string {
    return `/projects/${seg(projectId)}/branches/${seg(branchId)}/databases`;
  }

  private path(projectId: string, branchId: string, name: string): string {
    return `${this.databasesPath(projectId, branchId)}/${seg(name)}`;
  }
}
