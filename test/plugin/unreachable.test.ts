/**
 * A 404 that may mean "gone" or "this key does not reach it". Neon answers 404 for a project or organization the key
 * cannot see, exactly as for one that does not exist; taking that for "deleted" would drop from state, or report as
 * destroyed, an object that still runs. The provider must stop, say so, and change nothing.
 */
import { ApiKey, Compute } from "../../provider";
import { orgWorld, Orgs, statusWith } from "./api-key-kinds";
import { NeonWorld, ok, outputs } from "./world";

let world: NeonWorld;
let orgs: Orgs;
beforeAll(async () => {
  ({ world, orgs } = await orgWorld());
});
afterAll(() => world.stop());

const stored = (stack: { state: { resources: { urn: string }[] } }, name: string) =>
  stack.state.resources.some((r) => r.urn.endsWith(`::${name}`));

it("destroy with the key of an account outside the key's organization fails, and the key keeps working", async () => {
  const stack = world.stack(() => ({ key: new ApiKey("k", { keyName: "org-ci", orgId: orgs.orgA }).key }));
  ok(await stack.up({ skipPreview: true }));
  const secret = String(outputs(stack).key);
  const stranger = world.emulator.createAccount();
  stack.setConfig({ "neon:apiKey": { secret: stranger.apiKey } });
  ok(await stack.up()); // saves the new key for destroy, sending nothing

  const destroy = await stack.destroy({ skipPreview: true });
  expect(destroy.error?.message).toMatch(/could not be revoked: .*does not reach it.*Nothing was changed/);
  expect(stored(stack, "k")).toBe(true);
  expect(await statusWith(world, secret, `GET /projects/${orgs.projects[0]}`)).toBe(200);

  stack.setConfig({ "neon:apiKey": { secret: world.emulator.apiKey } });
  ok(await stack.up());
  ok(await stack.destroy({ skipPreview: true }));
  expect(await statusWith(world, secret, `GET /projects/${orgs.projects[0]}`)).toBe(401);
});

it("refresh and destroy with an organization key that does not reach the compute's project change nothing", async () => {
  const stack = world.stack(() => ({
    id: new Compute("db", { projectId: world.projectId, branchId: world.branches.dev, type: "read_only" }).id,
  }));
  ok(await stack.up({ skipPreview: true }));
  const id = String(outputs(stack).id);
  const orgKey = await world.api.orgApiKeys.create(orgs.orgA, { key_name: "org-wide" });
  stack.setConfig({ "neon:apiKey": { secret: orgKey.key } });
  ok(await stack.up()); // saves the new key for refresh and destroy, sending nothing

  const refresh = await stack.refresh();
  expect(refresh.error?.message).toMatch(
    /Compute "db" \(ep-.*\) was not found, and neither was its project .*Nothing was changed/,
  );
  expect(stored(stack, "db")).toBe(true);
  const destroy = await stack.destroy({ skipPreview: true });
  expect(destroy.error?.message).toContain(`neither was its project ${world.projectId}`);
  expect(stored(stack, "db")).toBe(true);
  expect((await world.api.endpoints.get(world.projectId, id)).id).toBe(id);

  stack.setConfig({ "neon:apiKey": { secret: world.emulator.apiKey } });
  ok(await stack.up());
  ok(await stack.destroy({ skipPreview: true }));
  expect((await world.api.endpoints.listForBranch(world.projectId, world.branches.dev)).map((c) => c.id)).toEqual([]);
});
