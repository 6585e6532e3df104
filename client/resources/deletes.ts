/**
 * Deletes of a branch's objects (branches, roles, databases), tolerant as STYLE.md asks: 404 and 204 ("doesn't exist
 * or has already been deleted", the OpenAPI document) mean it was not there, and resolve without the object. Each
 * runs under the project lock like every change (the service answers a delete with running operations that lock the
 * project), and resolves once those operations are done. As for computes (endpoints.ts), a delete whose outcome is
 * unknown is settled by reading the object back: gone → resolved once the branch's unfinished operations are done;
 * still there, or the read failed otherwise → the `ambiguous` error stands (the caller may resend).
 */
import { z } from "zod";
import { NeonError } from "../errors";
import { mutateProject } from "../project-lock";
import { Operation } from "../schemas";
import { ClientContext } from "./context";

/** What a delete answers: the deleted object under its key, absent when it was not there. */
export type Deleted<K extends string, T> = { [key in K]?: T } & { operations: Operation[] };

export interface DeleteSpec<R extends { operations: Operation[] }> {
  projectId: string;
  path: string;
  /** The 200 body's schema, the object optional (`X.partial({object: true})`). */
  schema: z.ZodType<R>;
  /** What an error of the wait names (the id or name of what is deleted). */
  resourceId: string;
  /** Reads the object back; rejects kind `not_found` once it is gone. */
  read: () => Promise<unknown>;
  /** The unfinished operations to wait for once a delete of unknown outcome turned out applied. */
  leftovers: () => Promise<Operation[]>;
}

/** DELETE under the project lock; see the module's comment. */
export function deleteUnderLock<R extends { operations: Operation[] }>(
  ctx: ClientContext,
  spec: DeleteSpec<R>,
): Promise<R> {
  // the schemas make the object optional, so `{operations}` alone is an R: "it was not there"
  const notThere = (operations: Operation[]) => ({ operations }) as R;
  const send = async (): Promise<R> => {
    try {
      const body = await ctx.transport.requestOptional({ method: "DELETE", path: spec.path, schema: spec.schema });
      return body ?? notThere([]);
    } catch (error) {
      return notThere(await settleFailedDelete(error, spec));
    }
  };
  const key = ctx.lockKey(spec.projectId);
  return mutateProject(
    key,
    (ops) => ctx.waitFor(spec.projectId, ops),
    send,
    () => spec.resourceId,
  );
}

async function settleFailedDelete(error: unknown, spec: DeleteSpec<{ operations: Operation[] }>): Promise<Operation[]> {
  if (!(error instanceof NeonError)) throw error;
  if (error.kind === "not_found") return [];
  if (error.kind !== "ambiguous" || !(await isGone(spec.read))) throw error;
  return spec.leftovers();
}

/** True when reading the object answers 404; false when it is there or the read failed otherwise. */
async function isGone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (readError) {
    return readError instanceof NeonError && readError.kind === "not_found";
  }
}
