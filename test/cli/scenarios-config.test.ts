/**
 * The provider's configuration as the real Pulumi CLI hands it over: a program whose own config has `apiKey` and
 * `apiUrl` (`project:apiKey`, `project:apiUrl`) beside `neon:apiKey` / `neon:apiUrl`: the provider uses only the
 * `neon:` ones (the program's URL gets nothing, every request succeeds). Run on the real CLI (asserted), then on the
 * model of the engine (`LocalStack`), whose transcript must equal the CLI's. Key rotation:
 * scenarios-config-rotation.test.ts; refresh after drift and ignoreChanges: scenarios-config-drift.test.ts.
 */
import { createServer, Server } from "http";
import { AddressInfo } from "net";
import * as pulumi from "@pulumi/pulumi";
import { Compute, getProjectsOutput } from "../../provider";
import {
  checkNoChange,
  cliWorld,
  CliWorld,
  compareWithModel,
  computesOn,
  Engine,
  ok,
  outputsOf,
  requests,
  runOn,
  writes,
} from "./cli-world";

let world: CliWorld;
let decoy: Server;
let decoyUrl: string;
const decoyHits: string[] = [];

beforeAll(async () => {
  world = await cliWorld();
  // The program's own API (a payments service): nothing of Neon's may ever reach it.
  decoy = createServer((req, res) => {
    decoyHits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    res.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => decoy.listen(0, "127.0.0.1", resolve));
  decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}/api/v2`;
});
afterAll(async () => {
  await world?.stop();
  await new Promise((resolve) => decoy?.close(resolve));
});

const replica = (branch: string) =>
  new Compute("db", { projectId: world.projectId, branchId: branch, type: "read_only" });

describe("the provider's settings beside the program's own, through the real CLI", () => {
  it("project:apiKey and project:apiUrl beside neon:apiKey and neon:apiUrl: Neon gets only the neon: ones, the program's API nothing", async () => {
    const branch = world.branches.dev;
    const program = () => ({
      id: replica(branch).id,
      projects: getProjectsOutput({}).projects.apply((list) => list.length),
      own: new pulumi.Config().requireSecret("apiKey"),
      ownUrl: new pulumi.Config().require("apiUrl"),
    });
    const config = { apiKey: { secret: "payments-secret-key" }, apiUrl: decoyUrl };
    // getProjects runs in the program, in every preview too: its reads are the program's, not a planned change.
    const programReads = /^GET \/projects 200$/;
    const scenario = (engine: Engine) =>
      runOn(world, engine, program, { config }, async (stack, t) => {
        const up = t.command("up", ok(await stack.up()));
        expect(requests(up).filter((r) => r.status >= 400)).toEqual([]);
        expect(writes(up)).toEqual([`POST /projects/${world.projectId}/endpoints`]);
        expect(up.outputs).toEqual({
          id: expect.stringMatching(/^ep-/),
          projects: 1,
          own: "[secret]",
          ownUrl: decoyUrl,
        });
        expect((await outputsOf(stack)).own).toBe("payments-secret-key");
        await checkNoChange(stack, t, engine, "after up", { programReads });
        const refresh = t.command("refresh", ok(await stack.refresh()));
        expect(requests(refresh).filter((r) => r.status >= 400)).toEqual([]);
        const destroy = t.command("destroy", ok(await stack.destroy()));
        expect(requests(destroy).filter((r) => r.status >= 400)).toEqual([]);
        expect(await computesOn(world, branch)).toEqual([]);
        expect(decoyHits).toEqual([]);
      });
    const cli = await scenario("cli");
    expect(cli.entries["up: steps"]).toEqual(["create db"]);
    expect(cli.entries["refresh: found"]).toEqual(["db same"]);
    expect(cli.entries["destroy: steps"]).toEqual(["delete db"]);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });
});
