import { NeonError } from "./errors";
import { ApiKeyList } from "./schemas-api-keys";
import { Endpoint, EndpointOperations, Operation, parseResponse, ProjectsPage } from "./schemas";

const where = { method: "GET", path: "/projects/p/endpoints/ep-1", requestId: "r" };

const sampleEndpoint = {
  host: "ep-shrill-thunder-454069.us-east-2.aws.neon.tech",
  id: "ep-shrill-thunder-454069",
  project_id: "bitter-meadow-966132",
  branch_id: "br-proud-paper-090813",
  autoscaling_limit_min_cu: 1,
  autoscaling_limit_max_cu: 1,
  region_id: "aws-us-east-2",
  type: "read_write",
  current_state: "init",
  pending_state: "active",
  settings: { pg_settings: {} },
  pooler_enabled: false,
  pooler_mode: "transaction",
  disabled: false,
  passwordless_access: true,
  created_at: "2022-12-03T15:37:07Z",
  updated_at: "2022-12-03T15:37:07Z",
  proxy_host: "us-east-2.aws.neon.tech",
  creation_source: "console",
  suspend_timeout_seconds: 10800,
  provisioner: "k8s-pod",
};

const sampleProject = {
  id: "bitter-meadow-966132",
  name: "app",
  platform_id: "aws",
  region_id: "aws-us-east-2",
  provisioner: "k8s-neonvm",
  pg_version: 17,
  proxy_host: "us-east-2.aws.neon.tech",
  created_at: "2022-12-03T15:37:07Z",
  updated_at: "2022-12-03T15:37:07Z",
};

const sampleOperation = {
  id: "874f8bfe-f51d-4c61-85af-a29bea73e0e2",
  project_id: "bitter-meadow-966132",
  branch_id: "br-proud-paper-090813",
  endpoint_id: "ep-shrill-thunder-454069",
  action: "start_compute",
  status: "running",
  failures_count: 0,
  created_at: "2022-12-03T15:37:07Z",
  updated_at: "2022-12-03T15:37:07Z",
  total_duration_ms: 100,
};

describe("schemas tolerate what the service adds", () => {
  // Issue 24: settings.preload_libraries (OpenAPI, PreloadLibraries) was stripped by the parse: no output read it.
  it("keeps settings.preload_libraries, a null field as it came", () => {
    const preload = { use_defaults: null, enabled_libraries: ["timescaledb"] };
    const settings = { pg_settings: {}, preload_libraries: preload };
    expect(Endpoint.parse({ ...sampleEndpoint, settings }).settings).toEqual(settings);
  });

  it("strips unknown fields of the OpenAPI example", () => {
    const body = { endpoint: { ...sampleEndpoint, brand_new_field: 1 }, operations: [sampleOperation], extra: true };
    const parsed = parseResponse(EndpointOperations, body, where);
    expect(parsed.endpoint.id).toBe(sampleEndpoint.id);
    expect(parsed.endpoint).not.toHaveProperty("brand_new_field");
  });
  it("accepts operation actions and statuses it does not know (keep waiting, not crash)", () => {
    expect(Operation.parse({ ...sampleOperation, action: "future_action", status: "pondering" }).status).toBe(
      "pondering",
    );
  });
  it("accepts a key list with a null last_used_at", () => {
    const item = {
      id: 1,
      name: "k",
      created_at: "2022-11-15T20:13:35Z",
      created_by: { id: "u", name: "n", image: "" },
      last_used_at: null,
      last_used_from_addr: "",
    };
    expect(ApiKeyList.parse([item])).toHaveLength(1);
  });
  it.each([
    ["pooler_enabled"],
    ["pooler_mode"],
    ["proxy_host"],
    ["provisioner"],
    ["creation_source"],
    ["passwordless_access"],
    ["updated_at"],
    ["settings"],
    ["disabled"],
    ["created_at"],
  ])("accepts a compute without the deprecated or only copied field %s, through the client's parse", (field) => {
    const endpoint: Record<string, unknown> = { ...sampleEndpoint };
    delete endpoint[field];
    const parsed = parseResponse(EndpointOperations, { endpoint, operations: [sampleOperation] }, where);
    expect(parsed.endpoint.id).toBe(sampleEndpoint.id);
    expect(parsed.endpoint).not.toHaveProperty(field);
  });
  it.each([
    ["host"],
    ["id"],
    ["branch_id"],
    ["type"],
    ["autoscaling_limit_min_cu"],
    ["current_state"],
    ["suspend_timeout_seconds"],
    ["region_id"], // compared with a program's regionId: a difference replaces the compute
  ])("still requires %s, which the client and the provider act on", (field) => {
    const endpoint: Record<string, unknown> = { ...sampleEndpoint };
    delete endpoint[field];
    expect(Endpoint.safeParse(endpoint).success).toBe(false);
  });
  it.each([["platform_id"], ["provisioner"], ["pg_version"], ["proxy_host"], ["created_at"], ["updated_at"]])(
    "accepts a project without %s, which getProjects only copies",
    (field) => {
      const project: Record<string, unknown> = { ...sampleProject };
      delete project[field];
      const page = parseResponse(ProjectsPage, { projects: [project] }, { method: "GET", path: "/projects" });
      expect(page.projects[0]).toEqual(project);
    },
  );
  it("accepts an operation with only id, action and status", () => {
    expect(Operation.parse({ id: "o", action: "start_compute", status: "running" }).status).toBe("running");
  });
  it("accepts a projects page without pagination", () => {
    expect(ProjectsPage.parse({ projects: [] }).projects).toEqual([]);
  });
});

describe("a missing required field fails naming the field and the route", () => {
  it("names the nested field", () => {
    const { host: _host, ...withoutHost } = sampleEndpoint;
    let thrown: unknown;
    try {
      parseResponse(EndpointOperations, { endpoint: withoutHost, operations: [] }, where);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NeonError);
    expect(thrown).toMatchObject({ kind: "response_shape", method: "GET", path: where.path });
    expect((thrown as Error).message).toContain("missing required field `endpoint.host`");
    expect((thrown as Error).message).toContain("GET /projects/p/endpoints/ep-1");
  });
  it("reports a wrong type too", () => {
    expect(() => parseResponse(Endpoint, { ...sampleEndpoint, type: 7 }, where)).toThrow(/field `type`/);
  });
});
