/**
 * The resources the native plugin serves, by type token: each one's declaration and the lifecycle functions of its
 * `impl.ts`, the very code the dynamic resources run (no second copy of any resource's logic). The functions are
 * imported by relative path, so that they and `provider/shared/runtime.ts`, which Configure sets, are one module
 * instance.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as apiKey from "../provider/api-key/impl";
import * as branch from "../provider/branch/impl";
import * as compute from "../provider/compute/impl";
import * as database from "../provider/database/impl";
import * as role from "../provider/role/impl";
import { DECLARATIONS } from "../provider/declarations";
import { Declaration, tokenOf } from "../provider/shared/declaration";
import type { DiffAnswer } from "../provider/shared/diff-answer";

type Props = Record<string, unknown>;

/** One resource's lifecycle, as its impl.ts exports it (the dynamic provider object in resource.ts calls the same). */
export interface Lifecycle {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffAnswer>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

const LIFECYCLES: Record<string, Lifecycle> = {
  ApiKey: { ...apiKey, delete: apiKey.deleteKey },
  Branch: { ...branch, delete: branch.deleteBranch },
  Compute: { ...compute, delete: compute.deleteCompute },
  Database: { ...database, delete: database.deleteDatabase },
  Role: { ...role, delete: role.deleteRole },
};

export interface Served {
  declaration: Declaration;
  lifecycle: Lifecycle;
}

/** Every resource by its type token (`neon:index:Compute`). */
export const SERVED: ReadonlyMap<string, Served> = new Map(
  DECLARATIONS.map((declaration) => [tokenOf(declaration), { declaration, lifecycle: LIFECYCLES[declaration.name] }]),
);

/** The resource of a type token, or an error naming the ones served. */
export function servedOf(type: string): Served {
  const served = SERVED.get(type);
  if (served) return served;
  throw new Error(`the neon plugin serves no resource ${type}; it serves ${[...SERVED.keys()].join(", ")}`);
}
