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
import * as project from "../provider/project/impl";
import * as role from "../provider/role/impl";
import { planBranchChange } from "../provider/branch/plan";
import { DECLARATIONS } from "../provider/declarations";
import { planRoleChange } from "../provider/role/declaration";
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
  /**
   * The outputs an update changes though no input sets them, unknown in its preview (preview.ts): a Role's password
   * when it is reset, a Branch's last reset when it is. None: every other output keeps its value.
   */
  changedOutputs?(olds: Props, news: Props): string[];
}

/**
 * Compute's diff, deleting first whenever it replaces: what the Compute class's default `deleteBeforeReplace` does for
 * the dynamic resource (compute/resource.ts, `deletingFirst`: a create refuses a compute named for the resource that
 * no state is known to hold, compute/owner-tag.ts). A native resource has no class to set the option, so the Diff answers
 * it; a program's own `deleteBeforeReplace: false` still wins (the engine takes the option over the answer:
 * pulumi/pulumi step_generator.go). The engine asks no Diff for `--replace` or a new `replacementTrigger`: those need
 * the option in the program (README, The native plugin).
 */
async function computeDiff(id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  const answer = await compute.diff(id, olds, news);
  return (answer.replaces ?? []).length > 0 ? { ...answer, deleteBeforeReplace: true } : answer;
}

const LIFECYCLES: Record<string, Lifecycle> = {
  ApiKey: { ...apiKey, delete: apiKey.deleteKey },
  Branch: {
    ...branch,
    delete: branch.deleteBranch,
    changedOutputs: (olds, news) => (planBranchChange(olds, news).reset ? ["lastResetAt"] : []),
  },
  Compute: { ...compute, diff: computeDiff, delete: compute.deleteCompute },
  Database: { ...database, delete: database.deleteDatabase },
  Project: { ...project, delete: project.deleteProject },
  Role: {
    ...role,
    delete: role.deleteRole,
    changedOutputs: (olds, news) => (planRoleChange(olds, news).reset ? ["password"] : []),
  },
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
