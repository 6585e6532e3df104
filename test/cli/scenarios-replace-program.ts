/**
 * The program and the scenario driver the replacement suites share (scenarios-replace*.test.ts): one compute "db" on
 * a branch, optionally under a ComponentResource, run on either engine, the real CLI or the model, each run recorded
 * in a Transcript and ended by a destroy that must leave the branch empty.
 */
import * as pulumi from "@pulumi/pulumi";
import { Compute, ComputeArgs } from "../../provider";
import {
  AnyStack,
  calls,
  checkNoChange,
  CliWorld,
  computesOn,
  Engine,
  ok,
  ops,
  outputsOf,
  since,
  stateIds,
  Transcript,
  writes,
} from "./cli-world";

export class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("app:index:Group", name, {}, opts);
  }
}

/** What the program declares; a test changes it between commands. */
export interface Declared {
  args: Partial<ComputeArgs>;
  opts: pulumi.CustomResourceOptions;
  parented?: boolean;
}

/** The program: one compute "db" on `branch`, under a Group when `parented`. Stack "cli" or "model". */
export function stackOf(world: CliWorld, engine: Engine, branch: string, declared: Declared): AnyStack {
  const program = () => {
    const parent = declared.parented ? { parent: new Group("group") } : {};
    const db = new Compute(
      "db",
      { projectId: world.projectId, branchId: branch, ...declared.args },
      { ...declared.opts, ...parent },
    );
    return { id: db.id };
  };
  return engine === "cli" ? world.stack(program, { stack: "cli" }) : world.model(program, { stack: "model" });
}

/**
 * Runs a scenario on one engine, then destroys (one delete, the branch left empty); whatever happens, destroys what is
 * left and disposes of the stack. Logs the run's duration.
 */
export async function run(
  world: CliWorld,
  engine: Engine,
  branch: string,
  declared: Declared,
  scenario: (stack: AnyStack, t: Transcript) => Promise<void>,
): Promise<Transcript> {
  const stack = stackOf(world, engine, branch, declared);
  const t = new Transcript();
  const start = Date.now();
  try {
    await scenario(stack, t);
    const destroy = t.command("destroy", ok(await stack.destroy({ skipPreview: true })));
    expect(await computesOn(world, branch)).toEqual([]);
    expect(ops(destroy)).toEqual(["delete db"]);
  } finally {
    if ((await computesOn(world, branch)).length > 0) await stack.destroy({ skipPreview: true });
    if ("dispose" in stack) await stack.dispose();
    console.log(`${expect.getState().currentTestName} [${engine}]: ${since(start)} ms`);
  }
  return t;
}

/** The compute id the stack's outputs hold. */
export const idOf = async (stack: AnyStack) => String((await outputsOf(stack)).id);

/** `/projects/<project>/endpoints` */
export const endpointsOf = (world: CliWorld) => `/projects/${world.projectId}/endpoints`;

/** The first up (one POST), then the no-change check; returns the compute's id. */
export async function firstUp(world: CliWorld, stack: AnyStack, t: Transcript, engine: Engine): Promise<string> {
  const up = t.command("first up", ok(await stack.up({ skipPreview: true })));
  expect(writes(up)).toEqual([`POST ${endpointsOf(world)}`]);
  await check(stack, t, engine, "after first up");
  return idOf(stack);
}

/** The no-change check: asserted on the CLI, recorded for the model (its answer is compared with the CLI's). */
export const check = checkNoChange;

/** What the 409 of a second primary must say: the branch, the compute on it, the fix. */
export function expectConflictNamed(message: string | undefined, branch: string, old: string, fix: string): void {
  expect(message).toContain(`cannot create a primary compute on branch ${branch}`);
  expect(message).toContain(`its primary (read_write) compute is ${old}`);
  expect(message).toContain(fix);
}

/**
 * A refused create of a second primary: its POST (409), the read naming the primary; nothing deleted or lost. A create
 * whose Check got no old inputs (`--replace`, a new URN) lists the branch first (provider/compute/owner-tag.ts):
 * `listedFirst`.
 */
export async function expectNothingLost(
  world: CliWorld,
  stack: AnyStack,
  up: Parameters<typeof calls>[0],
  old: string,
  branch: string,
  listedFirst = true,
): Promise<void> {
  const list = `GET /projects/${world.projectId}/branches/${branch}/endpoints 200`;
  expect(calls(up)).toEqual([...(listedFirst ? [list] : []), `POST ${endpointsOf(world)} 409`, list]);
  expect(await computesOn(world, branch)).toEqual([old]);
  expect(await stateIds(stack, "db")).toEqual([old]);
}

/**
 * A create refused before anything was sent: the branch was listed, a compute named for the resource that no state is
 * known to hold was found (provider/compute/owner-tag.ts), and the message names `old`; nothing deleted or lost.
 */
export async function expectRefusedBeforeSending(
  world: CliWorld,
  stack: AnyStack,
  up: Parameters<typeof calls>[0] & { error?: Error },
  old: string,
  branch: string,
  fix: string,
): Promise<void> {
  expect(up.error?.message).toContain(`was not created: on branch ${branch}, ${old} (pulumi-`);
  expect(up.error?.message).toContain(fix);
  expect(calls(up)).toEqual([`GET /projects/${world.projectId}/branches/${branch}/endpoints 200`]);
  expect(await computesOn(world, branch)).toEqual([old]);
  expect(await stateIds(stack, "db")).toEqual([old]);
}

/** Steps of a create-before-delete replacement, as the CLI reports them (preview and update alike). */
export const CREATE_BEFORE_DELETE = ["create-replacement db", "replace db", "delete-replaced db"];

/** Steps of a delete-before-create replacement (deleteBeforeReplace), as the CLI reports them. */
export const DELETE_BEFORE_CREATE = ["delete-replaced db", "replace db", "create-replacement db"];
