/**
 * connectionUri in a program, through the local engine: a secret, unknown at preview while the compute is to be
 * created, known at preview once it exists, no request of its own, and the same role, password, host and database
 * as the service's own connection_uri route (OpenAPI getConnectionURI) answers for the same compute.
 */
import { Compute, connectionUri } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok } from "./world";

let world: NeonWorld;
let stack: LocalStack;
let password: string;

const ROLE = "neondb_owner";
const DATABASE = "neondb";

beforeAll(async () => {
  world = await neonWorld();
  password = await world.api.roles.revealPassword(world.projectId, world.branches.main, ROLE);
  stack = world.stack(() => {
    const replica = new Compute("replica", {
      projectId: world.projectId,
      branchId: world.branches.main,
      type: "read_only",
    });
    const parts = { compute: replica, roleName: ROLE, password, databaseName: DATABASE };
    return {
      endpointId: replica.endpointId,
      databaseUrl: connectionUri(parts),
      databaseUrlPooled: connectionUri({ ...parts, pooled: true }),
    };
  });
});
afterAll(async () => {
  await stack?.destroy();
  await world?.stop();
});

/** Role, password, host and database of a URI (the query apart). */
function partsOf(uri: string) {
  const url = new URL(uri);
  return { user: url.username, password: url.password, host: url.host, path: url.pathname };
}

it("is unknown at preview before the compute exists, then a secret equal to the service's URI but for the query", async () => {
  const first = ok(await stack.preview());
  expect(first.outputs).toMatchObject({ databaseUrl: "[unknown]", databaseUrlPooled: "[unknown]" });

  ok(await stack.up());
  expect(stack.outputs()).toMatchObject({ databaseUrl: "[secret]", databaseUrlPooled: "[secret]" });
  const shown = stack.outputs({ showSecrets: true });
  const endpointId = String(shown.endpointId);
  const serviceUri = (pooled: boolean) =>
    world.api.projects.connectionUri({
      projectId: world.projectId,
      branch_id: world.branches.main,
      endpoint_id: endpointId,
      database_name: DATABASE,
      role_name: ROLE,
      pooled,
    });
  for (const [output, pooled] of [
    ["databaseUrl", false],
    ["databaseUrlPooled", true],
  ] as const) {
    const ours = String(shown[output]);
    const theirs = await serviceUri(pooled);
    expect(partsOf(ours)).toEqual(partsOf(theirs));
    expect(new URL(ours).search).toBe("?sslmode=require");
    expect(new URL(theirs).searchParams.get("sslmode")).toBe("require");
  }
  expect(partsOf(String(shown.databaseUrlPooled)).host).toMatch(new RegExp(`^${endpointId}-pooler\\.`));
});

it("is known at preview once the compute exists, and sends nothing", async () => {
  const preview = ok(await stack.preview());
  expect(preview.outputs).toMatchObject({ databaseUrl: "[secret]", databaseUrlPooled: "[secret]" });
  expect(preview.requests).toEqual([]);
  expect(stack.exportState()).not.toContain(password);
});
