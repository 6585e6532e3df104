/**
 * The deprecated pooler inputs (`poolerEnabled` / `poolerMode` → `pooler_enabled` / `pooler_mode`) under each plausible
 * service: one that applies them (responses carry them), one that ignores them (the emulator's default: responses lack
 * them) and one that refuses a request carrying them (400), as a service that removed them may (OpenAPI: deprecated,
 * `pooler_mode` to be removed after 2026-06-20). The provider sends them only when the program sets them; where they
 * are refused the step fails with the service's message first and says to remove them, and records nothing new.
 */
import { EmulatorOptions } from "../../emulator";
import { Compute, ComputeArgs } from "../../provider";
import { neonWorld, NeonWorld, ok, ops, writes } from "./world";

const SERVICES: [string, EmulatorOptions][] = [
  ["applies them", { omitPoolerFields: false }],
  ["ignores them", {}],
  ["refuses them", { poolerRequests: "refused" }],
];

describe.each(SERVICES)("a service that %s", (service, options) => {
  const refuses = options.poolerRequests === "refused";
  let world: NeonWorld;
  let args: Partial<ComputeArgs>;
  beforeAll(async () => {
    world = await neonWorld({ emulator: options });
  });
  afterAll(() => world.stop());

  const computeStack = () =>
    world.stack(() => ({
      id: new Compute("db", { projectId: world.projectId, branchId: world.branches.dev, type: "read_only", ...args })
        .id,
    }));
  const held = (stack: ReturnType<typeof computeStack>) => stack.state.resources.find((r) => r.urn.endsWith("::db"));

  it("a program without pooler inputs creates, updates and destroys a compute (none is sent)", async () => {
    args = {};
    const stack = computeStack();
    ok(await stack.up({ skipPreview: true }));
    args = { suspendTimeoutSeconds: 600 };
    const update = ok(await stack.up({ skipPreview: true }));
    expect(ops(update)).toEqual(["update db"]);
    expect(ok(await stack.up()).requests).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it(`a program that sets them: ${refuses ? "the create fails saying to remove them" : "no permanent diff"}`, async () => {
    args = { poolerEnabled: true, poolerMode: "transaction" };
    const stack = computeStack();
    const up = await stack.up({ skipPreview: true });
    if (!refuses) {
      ok(up);
      expect(ok(await stack.up()).requests).toEqual([]);
      ok(await stack.destroy({ skipPreview: true }));
      return;
    }
    // the service's message (and where it was sent) first, then the advice
    expect(up.error?.message).toMatch(/^HTTP 400: .*pooler.*\(POST \/projects\/[^)]*\)\. The service/);
    expect(up.error?.message).toContain(
      "The service no longer accepts the deprecated pooler settings: remove poolerEnabled and poolerMode from the " +
        "program",
    );
    expect(up.error?.message).toContain("poolerHost");
    expect(writes(up)).toEqual([`POST /projects/${world.projectId}/endpoints`]);
    expect(held(stack)).toBeUndefined();
    args = {};
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy({ skipPreview: true }));
  });

  it(`one added to a managed compute: ${refuses ? "the update fails saying to remove it" : "one PATCH"}`, async () => {
    args = {};
    const stack = computeStack();
    ok(await stack.up({ skipPreview: true }));
    args = { poolerEnabled: true };
    const update = await stack.up({ skipPreview: true });
    expect(writes(update)).toHaveLength(1);
    if (refuses) {
      expect(update.error?.message).toMatch(/^HTTP 400: .*pooler_enabled.*\(PATCH \/projects\/[^)]*\)\. The service/);
      expect(update.error?.message).toContain("remove poolerEnabled from the program");
      expect(update.error?.message).not.toContain("poolerMode");
      expect(held(stack)?.outputs.poolerEnabled).toBeUndefined();
      args = {};
    } else ok(update);
    expect(ok(await stack.up()).requests).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });
});
