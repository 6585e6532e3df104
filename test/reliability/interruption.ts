/**
 * Interruption (issue 6, part 3): the plugin killed (SIGKILL, as a cancelled `pulumi up`) while it waits for
 * the service's operation, then a new plugin and the next `up`.
 *
 * What the provider can and cannot do. Killed mid-update (resize, move, restart), the engine still holds the
 * compute's id and its old outputs, so the next `up` sends the change again and converges. Killed mid-create,
 * the engine never received an id (as real Pulumi: the create's response never came), so the next `up`
 * creates again; the provider's lost-create recovery (compute-create.ts) lives in the dead process's memory
 * and runs only for a response lost by the client, so it cannot find the first compute. Unless the provider
 * recognises the compute some other way (it could name it after the resource and adopt a compute of that
 * name on the branch), the first compute is left behind: a duplicate for a replica, and for a primary a 409
 * (the branch already has one) on every later `up`. The tests below assert the outcome a user needs.
 */
import { Rig } from "./rig";
import { DeclaredWorld, programOf } from "./worlds";

export interface Write {
  method: string;
  path: RegExp;
}

/** Runs an `up` of `world`, kills the plugin once `write` was answered, and starts a new plugin. */
export async function killDuringWait(rig: Rig, world: DeclaredWorld, write: Write): Promise<Error[]> {
  const mark = rig.emulator.requests.length;
  const pending = rig.up(programOf(world, rig.projects));
  const sent = () =>
    rig.emulator.requests
      .slice(mark)
      .some((r) => r.method === write.method && write.path.test(r.path) && r.status < 300);
  const deadline = Date.now() + 10_000;
  while (!sent() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!sent()) throw new Error(`${write.method} ${write.path} was never sent`);
  rig.plugin.kill();
  const { errors } = await pending;
  await rig.restartPlugin();
  return errors;
}
