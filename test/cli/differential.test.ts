/**
 * The local engine (testing/, `LocalStack`) checked against the real Pulumi CLI (`CliStack`): the same scenario
 * programs run through both, each against a fresh emulator of its own, and each command's result is compared per
 * resource (differential-compare.ts says what is compared and what is left out; testing/README.md, "Checked against
 * the real CLI", lists what the comparison found). The scenarios follow each other on one stack per side, as a user's
 * commands do. DIFFERENTIAL_DUMP=<file> writes every command's views, results and the CLI's events there.
 *
 * Inline programs run in this process, so the two sides take turns: one command at a time.
 */
import * as fs from "fs";
import { CommandResult } from "../../testing";
import { findPulumiCli } from "../../testing/cli";
import { View, viewOf, withoutDocumented } from "./differential-compare";
import { Side, Spec, startSide } from "./differential-world";

const cliRoot = findPulumiCli();

const initial: Spec = {
  db: { branch: "dev", size: 1 },
  replica: { branch: "main" },
  key: { keyName: "ci" },
};
const spec: Spec = structuredClone(initial);
let model: Side;
let cli: Side;
const dump: unknown[] = [];

beforeAll(async () => {
  if (!cliRoot) throw new Error("no Pulumi CLI: run `npm run pulumi:install` (it builds .pulumi-cli/bin/pulumi)");
  model = await startSide("model", () => spec, cliRoot);
  cli = await startSide("cli", () => spec, cliRoot);
});

afterAll(async () => {
  await model?.close();
  await cli?.close();
  if (process.env.DIFFERENTIAL_DUMP) fs.writeFileSync(process.env.DIFFERENTIAL_DUMP, JSON.stringify(dump, null, 1));
});

/** Runs the command on the model, then on the CLI (one program at a time in this process), and views both. */
async function both(scenario: string, command: (side: Side) => Promise<CommandResult>): Promise<[View, View]> {
  const views: View[] = [];
  for (const side of [model, cli]) {
    await side.learnIds();
    const started = Date.now();
    const result = await command(side);
    const ms = Date.now() - started;
    await side.learnIds();
    const view = viewOf(result, side.labels);
    views.push(view);
    dump.push({
      scenario,
      engine: side.engine,
      ms,
      view,
      error: result.error?.message,
      raw: result,
      events: side.events(),
    });
  }
  return [views[0], views[1]];
}

/** Both views equal, once the differences testing/README.md documents as safe are taken out. */
function expectAlike(local: View, real: View, failing?: string): void {
  expect(withoutDocumented(local, real, failing)).toEqual(local);
}

describe("the local engine against the real Pulumi CLI", () => {
  it("create: a primary, a replica and an API key", async () => {
    const [local, real] = await both("create", (side) => side.stack.up());
    expectAlike(local, real);
  });

  it("a second up changes nothing", async () => {
    const [local, real] = await both("no-op", (side) => side.stack.up());
    expectAlike(local, real);
  });

  it("a resize: an update that warns of a restart", async () => {
    spec.db.size = 2;
    const [local, real] = await both("resize", (side) => side.stack.up());
    expectAlike(local, real);
  });

  it("a branch move: an update", async () => {
    spec.replica = { ...spec.replica, branch: "staging" };
    const [local, real] = await both("move", (side) => side.stack.up());
    expectAlike(local, real);
  });

  it("--replace of the replica: the old one deleted, then the new one made (the class's deleteBeforeReplace)", async () => {
    const [local, real] = await both("replace-target", (side) => side.stack.up({ replace: ["replica"] }));
    expectAlike(local, real);
  });

  it("a new type replaces the replica: the preview's unknown outputs, then the up", async () => {
    spec.replica = { branch: "staging", type: "read_write" };
    const [localPreview, realPreview] = await both("type-preview", (side) => side.stack.preview());
    expectAlike(localPreview, realPreview);
    const [local, real] = await both("type", (side) => side.stack.up());
    expectAlike(local, real);
  });

  it("deleteBeforeReplace: a new key name revokes the old key first", async () => {
    spec.key = { keyName: "ci-2", deleteBeforeReplace: true };
    const [local, real] = await both("delete-before-replace", (side) => side.stack.up());
    expectAlike(local, real);
  });

  it("a refresh after an out-of-band resize, then the up that puts it back", async () => {
    const [local, real] = await both("refresh", async (side) => {
      const computes = await side.api.endpoints.list(side.emulator.projectId);
      const id = computes.find((e) => side.labels.text(e.id) === "{ep:db}")?.id;
      if (!id) throw new Error("no compute db");
      await side.api.endpoints.update(side.emulator.projectId, id, {
        endpoint: { autoscaling_limit_min_cu: 3, autoscaling_limit_max_cu: 3 },
      });
      return side.stack.refresh();
    });
    expectAlike(local, real);
    const [localUp, realUp] = await both("after-refresh", (side) => side.stack.up());
    expectAlike(localUp, realUp);
  });

  it("a failing update: moving the primary onto a branch that has one", async () => {
    spec.db.branch = "main";
    const [local, real] = await both("failing-update", (side) => side.stack.up());
    spec.db.branch = "dev";
    expectAlike(local, real, "db");
  });

  it("a failing check: the provider's reasons", async () => {
    spec.db.size = 0.3;
    const [local, real] = await both("check", (side) => side.stack.up());
    spec.db.size = 2;
    expectAlike(local, real, "db");
  });

  it("a new region: the provider has the primary deleted first, and the service refuses the new one", async () => {
    spec.db.args = { regionId: "aws-eu-central-1" };
    const [local, real] = await both("region", (side) => side.stack.up());
    expectAlike(local, real, "db");
  });

  it("back to the project's region: the next up creates the primary the failed replacement deleted", async () => {
    spec.db.args = {};
    const [local, real] = await both("region-back", (side) => side.stack.up());
    expectAlike(local, real);
  });

  it("destroy", async () => {
    const [local, real] = await both("destroy", (side) => side.stack.destroy());
    expectAlike(local, real);
  });
});
