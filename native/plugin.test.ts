/**
 * The native plugin as the engine meets it: the launcher (bin/pulumi-resource-neon) started with an engine's address,
 * the port read from its first line, then gRPC, against the emulator over HTTP. The "engine" here is a gRPC server that
 * records Engine.Log, the one engine call the plugin makes. What it guards:
 * - GetSchema serves schema.json; GetPluginInfo the package's version;
 * - Invoke serves the package's functions with the configured key (getRolePassword's password as a secret), and names
 *   a bad argument as a failure without sending anything;
 * - Diff names each changed property (`detailedDiff`: a resize UPDATE, a new project UPDATE_REPLACE), the dynamic
 *   plugin's gap, and sends no request; its restart warning reaches the engine's log as a WARNING with the URN;
 * - Check fills what the dynamic class sets (resourceName, ownerTag) from the URN;
 * - a provider configured by its arguments (an explicit provider resource, another account) uses its own key, and a
 *   secret output comes back wrapped as a secret;
 * - an import's Read (the id alone, as `pulumi import` sends it) of a Branch, Compute, Role and Database answers the
 *   state's id, the outputs and the inputs, which then Check and Diff as no change without a request; an id not of the
 *   resource's form, a missing object and an ApiKey are refused, saying why;
 * - a Compute's replacement deletes first (the class's default deleteBeforeReplace, which a native resource lacks);
 * - a Project: Check, Create (its password and connection strings wrapped as secrets), Diff (a replacement refused at
 *   Check while deletionProtection holds), Read, Delete refused until deletionProtection is false, import by id.
 */
import { ChildProcess, execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Emulator, startEmulator } from "../emulator";
import { NeonClient } from "../client";
import { UNKNOWN } from "../provider/shared/unknown";
import { LogEngine, spawnNativePlugin, startLogEngine } from "../testing/native-plugin";
import { secret } from "./wire";

const ROOT = path.resolve(__dirname, "..", "..");
type Props = Record<string, unknown>;
const Kind = proto.PropertyDiff.Kind;

/** A plugin process and a client of it. */
interface Plugin {
  child: ChildProcess;
  client: ResourceProviderClient;
  exited: Promise<number | null>;
}

let emulator: Emulator;
let engine: LogEngine;
const plugins: Plugin[] = [];

async function startPlugin(): Promise<Plugin> {
  const env = { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" };
  const { child, port, exited } = await spawnNativePlugin({ engine: engine.address, env, stderr: "inherit" });
  const plugin = {
    child,
    exited,
    client: new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()),
  };
  plugins.push(plugin);
  return plugin;
}

/** One unary call of the plugin, as a promise. */
function rpc<Q, R>(plugin: Plugin, method: string, request: Q): Promise<R> {
  const client = plugin.client as unknown as Record<string, (q: Q, cb: (e: Error | null, r: R) => void) => void>;
  return new Promise((resolve, reject) =>
    client[method].call(plugin.client, request, (error, response) => (error ? reject(error) : resolve(response))),
  );
}

const struct = (props: Props) => Struct.fromJavaScript(props as never);
const urnOf = (type: string, name: string) => `urn:pulumi:dev::native-test::neon:index:${type}::${name}`;

beforeAll(async () => {
  // pages of two where the API pages: the default world's three branches fill two, so a lookup must read both
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false, pageSize: 2 });
  engine = await startLogEngine();
});

afterAll(async () => {
  for (const plugin of plugins) {
    plugin.client.close();
    plugin.child.kill("SIGTERM");
    await plugin.exited;
  }
  engine.close();
  await emulator.close();
});

describe("the native plugin over gRPC", () => {
  let plugin: Plugin;
  beforeAll(async () => {
    plugin = await startPlugin();
    // The deprecated variables alone, as an older engine sends them (the arguments are tested below).
    const configure = new proto.ConfigureRequest();
    configure.getVariablesMap().set("neon:config:apiKey", emulator.apiKey).set("neon:config:apiUrl", emulator.baseUrl);
    const answer = await rpc<proto.ConfigureRequest, proto.ConfigureResponse>(plugin, "configure", configure);
    expect(answer.toObject()).toMatchObject({ acceptsecrets: true, acceptresources: true, supportspreview: true });
  });

  it("answers the package's version and serves schema.json", async () => {
    const info = await rpc<Empty, { getVersion(): string }>(plugin, "getPluginInfo", new Empty());
    expect(info.getVersion()).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
    const schema = await rpc<proto.GetSchemaRequest, proto.GetSchemaResponse>(
      plugin,
      "getSchema",
      new proto.GetSchemaRequest(),
    );
    expect(schema.getSchema()).toBe(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8"));
  });

  it("serves the functions: getProjects, getRolePassword (a secret), bad arguments named and nothing sent", async () => {
    const invoke = (tok: string, args: Props) =>
      rpc<proto.InvokeRequest, proto.InvokeResponse>(
        plugin,
        "invoke",
        new proto.InvokeRequest().setTok(tok).setArgs(struct(args)),
      );
    const projects = await invoke("neon:index:getProjects", {});
    expect(projects.getFailuresList()).toEqual([]);
    const listed = projects.getReturn()!.toJavaScript().projects as Props[];
    expect(listed.map((p) => p.id)).toContain(emulator.projectId);

    const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl });
    const branchId = (await api.branches.list(emulator.projectId))[0].id;
    const [role] = await api.roles.list(emulator.projectId, branchId);
    const revealed = await invoke("neon:index:getRolePassword", {
      projectId: emulator.projectId,
      branchId,
      roleName: role.name,
    });
    const password = await api.roles.revealPassword(emulator.projectId, branchId, role.name);
    expect(revealed.getReturn()!.toJavaScript()).toEqual({ password: secret(password) });

    const before = emulator.requests.length;
    const refused = await invoke("neon:index:getRolePassword", { projectId: emulator.projectId, branchId: "main" });
    expect(refused.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      ["branchId", expect.stringMatching(/^branchId must be a branch id/)],
    ]);
    const badSearch = await invoke("neon:index:getProjects", { search: 7 });
    expect(badSearch.getFailuresList().map((f) => f.getProperty())).toEqual(["search"]);
    expect(emulator.requests.length).toBe(before);
    await expect(invoke("neon:index:getNothing", {})).rejects.toThrow(/no function neon:index:getNothing/);
  });

  it("serves the lookups with the configured key: every page of a list, each element a resource's outputs", async () => {
    const invoke = async (tok: string, args: Props) => {
      const request = new proto.InvokeRequest().setTok(`neon:index:${tok}`).setArgs(struct(args));
      const answer = await rpc<proto.InvokeRequest, proto.InvokeResponse>(plugin, "invoke", request);
      expect(answer.getFailuresList()).toEqual([]);
      return answer.getReturn()!.toJavaScript() as Props;
    };
    const projectId = emulator.projectId;
    const mark = emulator.requests.length;
    const { branches } = (await invoke("getBranches", { projectId })) as { branches: Props[] };
    expect(branches.map((b) => b.name).sort()).toEqual(["dev", "main", "staging"]);
    const lists = emulator.requests.slice(mark).filter((r) => r.path === `/projects/${projectId}/branches`);
    expect(lists).toHaveLength(2); // three branches, pages of two
    const main = branches.find((b) => b.name === "main")!;
    expect(main).toMatchObject({ projectId, default: true });
    expect(main).not.toHaveProperty("resourceName");
    expect(await invoke("getBranch", { projectId, name: "main" })).toEqual(main);
    expect(await invoke("getBranch", { projectId, branchId: main.branchId })).toEqual(main);
    expect(await invoke("getProject", { projectId })).toMatchObject({ projectId, defaultBranchId: main.branchId });
    const { computes } = (await invoke("getComputes", { projectId })) as { computes: Props[] };
    expect(computes).toEqual([expect.objectContaining({ branchId: main.branchId, poolerHost: expect.any(String) })]);
    const branchOf = { projectId, branchId: main.branchId };
    const { roles } = (await invoke("getRoles", branchOf)) as { roles: Props[] };
    expect(roles).toEqual([expect.objectContaining({ name: "neondb_owner", noLogin: false })]);
    expect(roles[0]).not.toHaveProperty("password");
    const { databases } = (await invoke("getDatabases", branchOf)) as { databases: Props[] };
    expect(databases).toEqual([expect.objectContaining({ name: "neondb", ownerName: "neondb_owner" })]);
  });

  it("a lookup's bad arguments are failures naming them, nothing sent; a missing object is an error naming it", async () => {
    const invoke = (tok: string, args: Props) =>
      rpc<proto.InvokeRequest, proto.InvokeResponse>(
        plugin,
        "invoke",
        new proto.InvokeRequest().setTok(`neon:index:${tok}`).setArgs(struct(args)),
      );
    const failures = async (tok: string, args: Props) =>
      (await invoke(tok, args)).getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    const projectId = emulator.projectId;
    const before = emulator.requests.length;
    expect(await failures("getBranch", { projectId })).toEqual([
      ["branchId", "branchId must be given, or name: a branch is looked up by its id or its name"],
    ]);
    expect(await failures("getComputes", { projectId, branchId: "dev" })).toEqual([
      ["branchId", expect.stringMatching(/^branchId must be a branch id: .*, or left out \(got "dev"\)$/)],
    ]);
    expect(await failures("getRoles", { branchId: "br-a-1" })).toEqual([
      ["projectId", expect.stringMatching(/^projectId must be a project id/)],
    ]);
    expect(await failures("getProject", { projectId: 5 })).toEqual([
      ["projectId", expect.stringMatching(/^projectId must be a project id: .* \(got 5\)$/)],
    ]);
    expect(emulator.requests.length).toBe(before);
    await expect(invoke("getBranch", { projectId, name: "nope" })).rejects.toThrow(
      `getBranch: project ${projectId} has no branch named "nope"`,
    );
    await expect(invoke("getDatabases", { projectId: "no-such-project", branchId: "br-a-1" })).rejects.toThrow(
      "getDatabases: project no-such-project was not found",
    );
  });

  it("a refused input that came in as a secret is not shown in the reason; a plain one is", async () => {
    const checkRole = (projectId: unknown) =>
      rpc<proto.CheckRequest, proto.CheckResponse>(
        plugin,
        "check",
        new proto.CheckRequest()
          .setUrn(urnOf("Role", "app"))
          .setType("neon:index:Role")
          .setOlds(struct({}))
          .setNews(struct({ projectId, branchId: "br-odd-sun-12345678", name: "app" })),
      );
    const reasons = async (projectId: unknown) =>
      (await checkRole(projectId)).getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    expect(await reasons("Hidden Project")).toEqual([expect.stringContaining('got "Hidden Project"')]);
    const hidden = await reasons(secret("Hidden Project"));
    expect(hidden).toEqual([expect.stringMatching(/^projectId: must be a project id.*; got "\[secret\]"$/)]);
    expect(hidden.join()).not.toContain("Hidden");
  });

  it("a secret number is not shown either, nor where a rule over two inputs names it", async () => {
    const checkCompute = (min: unknown) =>
      rpc<proto.CheckRequest, proto.CheckResponse>(
        plugin,
        "check",
        new proto.CheckRequest()
          .setUrn(urnOf("Compute", "db"))
          .setType("neon:index:Compute")
          .setOlds(struct({}))
          .setNews(
            struct({
              projectId: emulator.projectId,
              branchId: "br-odd-sun-12345678",
              autoscalingLimitMinCu: min,
              autoscalingLimitMaxCu: 2,
              suspendTimeoutSeconds: secret(4242424),
            }),
          ),
      );
    const reasons = (await checkCompute(secret(7))).getFailuresList().map((f) => f.getReason());
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.join(" ")).not.toMatch(/\b7\b|4242424/);
    expect(reasons.join(" ")).toContain("[secret]");
    const plain = (await checkCompute(7)).getFailuresList().map((f) => f.getReason());
    expect(plain.join(" ")).toMatch(/\b7\b/);
  });

  it("a Compute's lifecycle: Check and Diff offline with a detailed diff and the restart warning on its URN", async () => {
    const urn = urnOf("Compute", "db");
    const { projectId } = emulator;
    const branchId = (
      await new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl }).branches.list(projectId)
    )[0].id;
    const sized = (cu: number, more: Props = {}) => ({
      projectId,
      branchId,
      type: "read_only",
      autoscalingLimitMinCu: cu,
      autoscalingLimitMaxCu: cu,
      ...more,
    });
    const check = async (olds: Props, news: Props) => {
      const request = new proto.CheckRequest().setUrn(urn).setType("neon:index:Compute");
      const answer = await rpc<proto.CheckRequest, proto.CheckResponse>(
        plugin,
        "check",
        request.setOlds(struct(olds)).setNews(struct(news)),
      );
      expect(answer.getFailuresList().map((f) => f.toObject())).toEqual([]);
      return answer.getInputs()!.toJavaScript() as Props;
    };
    const inputs = await check({}, sized(1));
    expect(inputs).toMatchObject({ resourceName: "db", ownerTag: expect.stringMatching(/^[0-9a-f]{12}$/) });

    const created = await rpc<proto.CreateRequest, proto.CreateResponse>(
      plugin,
      "create",
      new proto.CreateRequest().setUrn(urn).setType("neon:index:Compute").setProperties(struct(inputs)),
    );
    const id = created.getId();
    const outputs = created.getProperties()!.toJavaScript() as Props;
    expect(outputs).toMatchObject({ endpointId: id, autoscalingLimitMaxCu: 1, host: expect.stringContaining(id) });
    expect(outputs).not.toHaveProperty("__provider");

    const mark = emulator.requests.length;
    const diff = async (news: Props) => {
      const request = new proto.DiffRequest().setId(id).setUrn(urn).setType("neon:index:Compute");
      request
        .setOlds(struct(outputs))
        .setOldInputs(struct(inputs))
        .setNews(struct(await check(inputs, news)));
      return (await rpc<proto.DiffRequest, proto.DiffResponse>(plugin, "diff", request)).toObject();
    };
    const resized = await diff(sized(2));
    expect(resized).toMatchObject({
      changes: proto.DiffResponse.DiffChanges.DIFF_SOME,
      replacesList: [],
      hasdetaileddiff: true,
    });
    expect(Object.fromEntries(resized.detaileddiffMap)).toEqual({
      autoscalingLimitMinCu: { kind: Kind.UPDATE, inputdiff: true },
      autoscalingLimitMaxCu: { kind: Kind.UPDATE, inputdiff: true },
    });
    expect(engine.logged).toEqual([
      expect.objectContaining({
        severity: LogSeverity.WARNING,
        urn,
        message: expect.stringMatching(/^Compute "db" .* will restart/),
      }),
    ]);
    const moved = await diff(sized(1, { projectId: "other-project-12345678" }));
    expect(moved).toMatchObject({ replacesList: ["projectId"], deletebeforereplace: true });
    expect(Object.fromEntries(moved.detaileddiffMap)).toEqual({
      projectId: { kind: Kind.UPDATE_REPLACE, inputdiff: true },
    });
    // A preview's value not known yet is a change of its property.
    const unknown = await diff(sized(1, { branchId: UNKNOWN }));
    expect(Object.fromEntries(unknown.detaileddiffMap)).toEqual({ branchId: { kind: Kind.UPDATE, inputdiff: true } });
    expect((await diff(sized(1))).changes).toBe(proto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(emulator.requests.slice(mark)).toEqual([]);

    const update = new proto.UpdateRequest().setId(id).setUrn(urn).setType("neon:index:Compute");
    update
      .setOlds(struct(outputs))
      .setOldInputs(struct(inputs))
      .setNews(struct(await check(inputs, sized(2))));
    const updated = await rpc<proto.UpdateRequest, proto.UpdateResponse>(plugin, "update", update);
    expect(updated.getProperties()!.toJavaScript()).toMatchObject({
      autoscalingLimitMaxCu: 2,
      maxConnections: expect.any(Number),
    });
    const writes = emulator.requests.slice(mark).filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /projects/${projectId}/endpoints/${id}`]);

    const read = new proto.ReadRequest().setId(id).setUrn(urn).setType("neon:index:Compute");
    read.setProperties(updated.getProperties()).setInputs(struct(inputs));
    expect((await rpc<proto.ReadRequest, proto.ReadResponse>(plugin, "read", read)).getId()).toBe(id);

    const remove = new proto.DeleteRequest().setId(id).setUrn(urn).setType("neon:index:Compute");
    await rpc(plugin, "delete", remove.setProperties(updated.getProperties()));
    expect(emulator.requests.some((r) => r.method === "DELETE" && r.path.endsWith(`/endpoints/${id}`))).toBe(true);
  });

  it("a replacement of a Compute deletes the old one first (the Compute class's default, answered by the Diff)", async () => {
    const urn = urnOf("Compute", "replaced");
    const { projectId } = emulator;
    const olds = { projectId, branchId: "br-old-123456", type: "read_only", resourceName: "replaced" };
    const request = new proto.DiffRequest().setId("ep-replaced-123456").setUrn(urn).setType("neon:index:Compute");
    request.setOlds(struct(olds)).setNews(struct({ ...olds, type: "read_write" }));
    const answer = await rpc<proto.DiffRequest, proto.DiffResponse>(plugin, "diff", request);
    expect(answer.toObject()).toMatchObject({ replacesList: ["type"], deletebeforereplace: true });
  });

  it("a Project's lifecycle: Check from the URN, Create with secrets wrapped, Diff's detailed diff, Read, Delete guarded", async () => {
    const urn = urnOf("Project", "proj");
    const type = "neon:index:Project";
    const check = async (olds: Props, news: Props) =>
      rpc<proto.CheckRequest, proto.CheckResponse>(
        plugin,
        "check",
        new proto.CheckRequest().setUrn(urn).setType(type).setOlds(struct(olds)).setNews(struct(news)),
      );
    const checked = await check({}, { regionId: "aws-us-east-2", branch: { databaseName: "appdb" } });
    expect(checked.getFailuresList()).toEqual([]);
    const inputs = checked.getInputs()!.toJavaScript() as Props;
    expect(inputs).toMatchObject({ resourceName: "proj", name: "proj" });
    const created = await rpc<proto.CreateRequest, proto.CreateResponse>(
      plugin,
      "create",
      new proto.CreateRequest().setUrn(urn).setType(type).setProperties(struct(inputs)),
    );
    const id = created.getId();
    const outputs = created.getProperties()!.toJavaScript() as Props;
    expect(outputs).toMatchObject({ projectId: id, roleName: "appdb_owner", databaseName: "appdb" });
    for (const name of ["rolePassword", "connectionUri", "connectionUriPooled"])
      expect(outputs[name]).toEqual(secret(expect.any(String)));

    const mark = emulator.requests.length;
    const diff = async (news: Props) => {
      const request = new proto.DiffRequest().setId(id).setUrn(urn).setType(type);
      request.setOlds(created.getProperties()).setOldInputs(struct(inputs)).setNews(struct(news));
      return (await rpc<proto.DiffRequest, proto.DiffResponse>(plugin, "diff", request)).toObject();
    };
    expect((await diff(inputs)).changes).toBe(proto.DiffResponse.DiffChanges.DIFF_NONE);
    const renamed = await diff({ ...inputs, name: "proj-2", settings: { enableLogicalReplication: true } });
    expect(Object.fromEntries(renamed.detaileddiffMap)).toEqual({
      name: { kind: Kind.UPDATE, inputdiff: true },
      settings: { kind: Kind.ADD, inputdiff: true },
    });
    const moved = await diff({ ...inputs, regionId: "aws-eu-central-1" });
    expect(moved.replacesList).toEqual(["regionId"]);
    expect(Object.fromEntries(moved.detaileddiffMap)).toEqual({
      regionId: { kind: Kind.UPDATE_REPLACE, inputdiff: true },
    });
    // Check refuses that replacement while deletionProtection holds (a native resource has no class to set protect).
    const refused = await check(inputs, { ...inputs, regionId: "aws-eu-central-1" });
    expect(refused.getFailuresList().map((f) => f.getProperty())).toEqual(["regionId"]);
    expect(emulator.requests.slice(mark)).toEqual([]);

    const read = new proto.ReadRequest().setId(id).setUrn(urn).setType(type);
    read.setProperties(created.getProperties()).setInputs(struct(inputs));
    const refreshed = await rpc<proto.ReadRequest, proto.ReadResponse>(plugin, "read", read);
    expect(refreshed.getProperties()!.toJavaScript()).toEqual(outputs);

    const remove = () =>
      rpc(
        plugin,
        "delete",
        new proto.DeleteRequest().setId(id).setUrn(urn).setType(type).setProperties(refreshed.getProperties()),
      );
    await expect(remove()).rejects.toThrow(/was not deleted: deletionProtection is true/);
    expect(emulator.requests.some((r) => r.method === "DELETE" && r.path === `/projects/${id}`)).toBe(false);
    refreshed.getProperties()!.getFieldsMap().get("deletionProtection")!.setBoolValue(false);
    await remove();
    expect(emulator.requests.some((r) => r.method === "DELETE" && r.path === `/projects/${id}`)).toBe(true);
  });

  describe("pulumi import: a Read with the import id alone", () => {
    const api = () => new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
    let projectId: string;
    let branchId: string;
    let endpointId: string;

    /** The Read an import sends (pulumi/pulumi step.go, ImportStep): the id, the URN, the type, nothing else. */
    const importRead = (type: string, name: string, id: string) =>
      rpc<proto.ReadRequest, proto.ReadResponse>(
        plugin,
        "read",
        new proto.ReadRequest().setId(id).setUrn(urnOf(type, name)).setType(`neon:index:${type}`),
      );

    /**
     * What the engine does next, and what the program's preview then does: Check (olds: the read inputs) and Diff
     * (olds: the read outputs) of the same inputs: no failure, no change, no request.
     */
    async function expectNoChange(type: string, name: string, read: proto.ReadResponse): Promise<void> {
      const mark = emulator.requests.length;
      const urn = urnOf(type, name);
      const inputs = read.getInputs()!;
      const check = new proto.CheckRequest().setUrn(urn).setType(`neon:index:${type}`).setOlds(inputs).setNews(inputs);
      const checked = await rpc<proto.CheckRequest, proto.CheckResponse>(plugin, "check", check);
      expect(checked.getFailuresList().map((f) => f.toObject())).toEqual([]);
      const diff = new proto.DiffRequest().setId(read.getId()).setUrn(urn).setType(`neon:index:${type}`);
      diff.setOlds(read.getProperties()).setOldInputs(inputs).setNews(checked.getInputs());
      const answer = await rpc<proto.DiffRequest, proto.DiffResponse>(plugin, "diff", diff);
      expect(answer.toObject()).toMatchObject({ changes: proto.DiffResponse.DiffChanges.DIFF_NONE, replacesList: [] });
      expect(emulator.requests.slice(mark)).toEqual([]);
    }

    beforeAll(async () => {
      projectId = emulator.projectId;
      const main = (await api().branches.list(projectId)).find((b) => b.default)!;
      ({
        branch: { id: branchId },
      } = await api().branches.create(projectId, { name: "imported", parent_id: main.id }));
      ({
        endpoint: { id: endpointId },
      } = await api().endpoints.create(projectId, { branch_id: branchId, type: "read_write" }));
      await api().roles.create(projectId, branchId, { name: "app_user" });
      await api().databases.create(projectId, branchId, { name: "appdb", owner_name: "app_user" });
    });

    it("a Branch by <project>/<branch>: its id, its outputs and the inputs a program declares", async () => {
      const read = await importRead("Branch", "imported", `${projectId}/${branchId}`);
      expect(read.getId()).toBe(branchId);
      expect(read.getInputs()!.toJavaScript()).toEqual({
        projectId,
        name: "imported",
        parentId: expect.stringMatching(/^br-/),
        initSource: "parent-data",
      });
      expect(read.getProperties()!.toJavaScript()).toMatchObject({
        branchId,
        resourceName: "imported",
        declared: ["initSource", "name", "parentId", "projectId", "resourceName"],
        origin: { parentId: expect.stringMatching(/^br-/) },
      });
      await expectNoChange("Branch", "imported", read);
    });

    it("a protected Branch: protected: true among the inputs, and no warning that the program does not say so", async () => {
      const main = (await api().branches.list(projectId)).find((b) => b.default)!;
      const { branch } = await api().branches.create(projectId, { name: "kept", parent_id: main.id, protected: true });
      const mark = engine.logged.length;
      const read = await importRead("Branch", "kept", `${projectId}/${branch.id}`);
      expect(read.getInputs()!.toJavaScript()).toMatchObject({ name: "kept", protected: true });
      expect(read.getProperties()!.toJavaScript()).toMatchObject({
        protected: true,
        declared: expect.arrayContaining(["protected"]),
      });
      expect(engine.logged.slice(mark)).toEqual([]);
      await expectNoChange("Branch", "kept", read);
    });

    it("a Compute by <project>/<endpoint>, with the owner tag its URN gives", async () => {
      const read = await importRead("Compute", "db", `${projectId}/${endpointId}`);
      expect(read.getId()).toBe(endpointId);
      const inputs = read.getInputs()!.toJavaScript() as Props;
      // What the service reports of each input, but a default (type read_write), an empty pgSettings and the
      // deprecated pooler fields, which leaving out changes nothing.
      expect(inputs).toEqual({
        projectId,
        branchId,
        regionId: expect.any(String),
        autoscalingLimitMinCu: 0.25,
        autoscalingLimitMaxCu: 0.25,
        suspendTimeoutSeconds: 0,
        provisioner: expect.any(String),
        disabled: false,
        passwordlessAccess: expect.any(Boolean),
      });
      expect(read.getProperties()!.toJavaScript()).toMatchObject({
        endpointId,
        type: "read_write",
        resourceName: "db",
        ownerTag: expect.stringMatching(/^[0-9a-f]{12}$/),
      });
      await expectNoChange("Compute", "db", read);
    });

    it("a Role by <project>/<branch>/<name>: its id is that address, its password a secret output", async () => {
      const id = `${projectId}/${branchId}/app_user`;
      const read = await importRead("Role", "app", id);
      expect(read.getId()).toBe(id);
      expect(read.getInputs()!.toJavaScript()).toEqual({ projectId, branchId, name: "app_user" });
      const outputs = read.getProperties()!.toJavaScript() as Props;
      expect(outputs).toMatchObject({ name: "app_user", noLogin: false, createdAt: expect.any(String) });
      expect(outputs.password).toEqual(secret(expect.any(String)));
      await expectNoChange("Role", "app", read);
    });

    it("a Database by <project>/<branch>/<name>: its id is the service's database id", async () => {
      const database = await api().databases.get(projectId, branchId, "appdb");
      const read = await importRead("Database", "appdb", `${projectId}/${branchId}/appdb`);
      expect(read.getId()).toBe(String(database.id));
      expect(read.getInputs()!.toJavaScript()).toEqual({ projectId, branchId, name: "appdb", ownerName: "app_user" });
      await expectNoChange("Database", "appdb", read);
    });

    it("a Project by <project>: its default objects, the role's password a secret, and no change after", async () => {
      const read = await importRead("Project", "proj", projectId);
      expect(read.getId()).toBe(projectId);
      const inputs = read.getInputs()!.toJavaScript() as Props;
      expect(inputs).toMatchObject({
        name: expect.any(String),
        regionId: expect.any(String),
        branch: { name: expect.any(String), roleName: "neondb_owner", databaseName: "neondb" },
      });
      expect(inputs).not.toHaveProperty("deletionProtection"); // the default
      const outputs = read.getProperties()!.toJavaScript() as Props;
      expect(outputs).toMatchObject({
        projectId,
        resourceName: "proj",
        defaultBranchId: expect.stringMatching(/^br-/),
      });
      expect(outputs.rolePassword).toEqual(secret(expect.any(String)));
      expect(outputs.connectionUri).toEqual(secret(expect.stringMatching(/^postgresql:\/\/neondb_owner:/)));
      await expectNoChange("Project", "proj", read);
    });

    it("an id not of the resource's form is refused, naming the resource, the form and the id", async () => {
      await expect(importRead("Compute", "db", endpointId)).rejects.toThrow(
        `cannot import Compute "${endpointId}": the import id of a Compute is <project>/<endpoint> (such as ` +
          `my-project-123456/ep-cool-darkness-123456), and it has 1 part, not 2`,
      );
      await expect(importRead("Branch", "b", `${projectId}/${endpointId}`)).rejects.toThrow(
        /the import id of a Branch is <project>\/<branch> .*<branch> must be a branch id/,
      );
      await expect(importRead("Role", "r", `${projectId}/${branchId}`)).rejects.toThrow(
        /import id of a Role is <project>\/<branch>\/<name> .* it has 2 parts, not 3/,
      );
    });

    it("an object that does not exist is said so, named", async () => {
      await expect(importRead("Compute", "db", `${projectId}/ep-missing-123456`)).rejects.toThrow(
        `cannot import Compute ${projectId}/ep-missing-123456: compute ep-missing-123456 does not exist in project ${projectId}`,
      );
      await expect(importRead("Role", "r", `${projectId}/${branchId}/nobody`)).rejects.toThrow(
        `cannot import Role ${projectId}/${branchId}/nobody: role nobody does not exist in branch ${branchId} of project ${projectId}`,
      );
      await expect(importRead("Database", "d", `${projectId}/${branchId}/nodb`)).rejects.toThrow(
        `database nodb does not exist in branch ${branchId} of project ${projectId}`,
      );
      await expect(importRead("Role", "r", `${projectId}/br-gone-sun-12345678/app_user`)).rejects.toThrow(
        `cannot import Role ${projectId}/br-gone-sun-12345678/app_user: project ${projectId} has no branch ` +
          "br-gone-sun-12345678; check the branch id",
      );
    });

    it("an object of a project that does not answer says so, with nothing to remove from a state that has none", async () => {
      const failure = importRead("Branch", "b", "no-such-project-123/br-gone-sun-12345678");
      await expect(failure).rejects.toThrow(
        "cannot import Branch no-such-project-123/br-gone-sun-12345678: neither branch br-gone-sun-12345678 nor its " +
          "project no-such-project-123 was found: check the project id, or neon:apiKey does not reach project " +
          "no-such-project-123",
      );
      await expect(failure).rejects.not.toThrow(/state delete/);
    });

    it("an ApiKey is refused, saying why and what to do", async () => {
      await expect(importRead("ApiKey", "ci", "1234")).rejects.toThrow(
        /cannot import ApiKey 1234: Neon returns a key's secret value only in the answer that creates it, so an imported key would have no `key` output\. Declare a new ApiKey instead/,
      );
    });
  });
});

it("a provider configured by its arguments (another account's secret key) uses that key; a secret output stays secret", async () => {
  const other = emulator.createAccount();
  const plugin = await startPlugin();
  const configure = new proto.ConfigureRequest().setArgs(
    struct({ apiKey: secret(other.apiKey), apiUrl: emulator.baseUrl }),
  );
  await rpc(plugin, "configure", configure);
  const urn = urnOf("ApiKey", "ci");
  const check = new proto.CheckRequest().setUrn(urn).setType("neon:index:ApiKey");
  const checked = await rpc<proto.CheckRequest, proto.CheckResponse>(
    plugin,
    "check",
    check.setOlds(struct({})).setNews(struct({ keyName: secret("ci") })),
  );
  expect(checked.getInputs()!.toJavaScript()).toEqual({ keyName: secret("ci") });

  const create = new proto.CreateRequest().setUrn(urn).setType("neon:index:ApiKey").setProperties(checked.getInputs());
  const created = await rpc<proto.CreateRequest, proto.CreateResponse>(plugin, "create", create);
  const outputs = created.getProperties()!.toJavaScript() as Props;
  expect(outputs.key).toEqual(secret(expect.any(String)));
  expect(outputs.keyName).toEqual(secret("ci"));
  const keysOf = (apiKey: string) =>
    new NeonClient({ apiKey, apiUrl: emulator.baseUrl, rateLimit: false }).apiKeys.list();
  expect((await keysOf(other.apiKey)).map((k) => String(k.id))).toContain(created.getId());
  expect((await keysOf(emulator.apiKey)).map((k) => String(k.id))).not.toContain(created.getId());

  const remove = new proto.DeleteRequest().setId(created.getId()).setUrn(urn).setType("neon:index:ApiKey");
  await rpc(plugin, "delete", remove.setProperties(created.getProperties()));
  expect((await keysOf(other.apiKey)).map((k) => String(k.id))).not.toContain(created.getId());
});

/**
 * An explicit provider resource is configured by its own inputs, never the stack's `neon:apiKey`: its messages name
 * its `apiKey` by the provider's name (the engine sends it in Configure), so that a user fixes the right setting.
 */
describe("an explicit provider's messages name its own settings", () => {
  const configureAs = async (name: string, args: Props) => {
    const plugin = await startPlugin();
    const request = new proto.ConfigureRequest()
      .setName(name)
      .setUrn(`urn:pulumi:dev::native-test::pulumi:providers:neon::${name}`)
      .setArgs(struct(args));
    await rpc(plugin, "configure", request);
    return plugin;
  };
  const checkKey = (plugin: Plugin) =>
    rpc<proto.CheckRequest, proto.CheckResponse>(
      plugin,
      "check",
      new proto.CheckRequest()
        .setUrn(urnOf("ApiKey", "ci"))
        .setType("neon:index:ApiKey")
        .setOlds(struct({}))
        .setNews(struct({ keyName: "ci" })),
    );

  it("a refused key is the provider's apiKey, to be given to the provider", async () => {
    const plugin = await configureAs("other", { apiKey: secret("napi_wrong"), apiUrl: emulator.baseUrl });
    const checked = await checkKey(plugin);
    const create = new proto.CreateRequest()
      .setUrn(urnOf("ApiKey", "ci"))
      .setType("neon:index:ApiKey")
      .setProperties(checked.getInputs());
    const failure = rpc(plugin, "create", create);
    await expect(failure).rejects.toThrow(
      /Neon refused the apiKey of provider "other": it is wrong, or it was revoked/,
    );
    await expect(failure).rejects.toThrow(/give it to provider "other" as its apiKey/);
    await expect(failure).rejects.not.toThrow(/neon:apiKey/);
  });

  it("no key anywhere says the provider has no apiKey", async () => {
    const plugin = await configureAs("other", { apiUrl: emulator.baseUrl });
    await expect(checkKey(plugin)).rejects.toThrow(
      /No Neon API key: provider "other" has no apiKey and NEON_API_KEY is not set: give the provider an apiKey/,
    );
  });

  it("a provider a program named default_eu is an explicit one, named as such", async () => {
    const plugin = await configureAs("default_eu", { apiUrl: emulator.baseUrl });
    await expect(checkKey(plugin)).rejects.toThrow(/provider "default_eu" has no apiKey/);
  });

  it("the default provider (named default_<version>) still names neon:apiKey", async () => {
    const plugin = await configureAs("default_0_1_0", { apiKey: secret("napi_wrong"), apiUrl: emulator.baseUrl });
    const checked = await checkKey(plugin);
    const create = new proto.CreateRequest()
      .setUrn(urnOf("ApiKey", "ci"))
      .setType("neon:index:ApiKey")
      .setProperties(checked.getInputs());
    await expect(rpc(plugin, "create", create)).rejects.toThrow(/Neon refused the key in neon:apiKey/);
  });
});

describe("the launcher started by hand", () => {
  const launcher = path.join(ROOT, "bin", "pulumi-resource-neon");
  const run = (...args: string[]) => execFileSync(launcher, args, { encoding: "utf8", timeout: 60_000 });

  it("--help says that Pulumi starts it, and how a program points at it", () => {
    const help = run("--help");
    expect(help).toMatch(/^pulumi-resource-neon: the Neon provider plugin for Pulumi \(version \d+\.\d+\.\d+/);
    expect(help).toContain("plugins: providers: [{name: neon, path: <folder>}]");
    expect(help).toContain("pulumi plugin install resource neon <version> --file <folder>");
  });

  it("--version prints the package's version, as GetPluginInfo gives it", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(run("--version")).toBe(`${version}\n`);
  });
});
