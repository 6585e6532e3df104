/**
 * The validator itself: if it accepted everything, every "validates against the contract" assertion in the
 * faithfulness suites would be vacuous. Each case names the mistake it must catch.
 */
import { assertMatchesContract, contractOperations, matchRoute, validateResponse } from "./contract";
import { ContractRecorder } from "./recorder";

const endpoint = {
  host: "ep-silent-smoke-806639.us-east-2.aws.neon.tech",
  id: "ep-silent-smoke-806639",
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  autoscaling_limit_min_cu: 0.25,
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
  creation_source: "console",
  created_at: "2022-12-03T15:37:07Z",
  updated_at: "2022-12-03T15:37:07Z",
  proxy_host: "us-east-2.aws.neon.tech",
  suspend_timeout_seconds: 0,
  provisioner: "k8s-neonvm",
};
const operation = {
  id: "d8ac46eb-a757-42b1-9907-f78322ee394e",
  project_id: "spring-example-302709",
  branch_id: "br-wispy-meadow-118737",
  endpoint_id: "ep-silent-smoke-806639",
  action: "start_compute",
  status: "running",
  failures_count: 0,
  created_at: "2022-11-15T20:02:00Z",
  updated_at: "2022-11-15T20:02:02Z",
  total_duration_ms: 0,
};
const createPath = "/projects/spring-example-302709/endpoints";
const onePath = "/projects/spring-example-302709/endpoints/ep-silent-smoke-806639";

describe("matchRoute", () => {
  it("maps concrete paths (with base URL and query) to the contract's templates", () => {
    expect(matchRoute("http://127.0.0.1:1/api/v2/projects/p-1/endpoints/ep-x?x=1")).toBe(
      "/projects/{project_id}/endpoints/{endpoint_id}",
    );
    expect(matchRoute("/projects/p/endpoints/ep-x/restart")).toBe(
      "/projects/{project_id}/endpoints/{endpoint_id}/restart",
    );
    expect(matchRoute("/api_keys/12")).toBe("/api_keys/{key_id}");
    expect(matchRoute("/projects")).toBe("/projects");
    expect(matchRoute("/projects/shared")).toBeUndefined(); // the full document's own route, not a project id
    expect(matchRoute("/projects/spring-example-302709")).toBe("/projects/{project_id}");
    expect(matchRoute("/organizations/org-a-1/api_keys")).toBe("/organizations/{org_id}/api_keys");
    expect(matchRoute("/organizations/org-a-1/api_keys/7")).toBe("/organizations/{org_id}/api_keys/{key_id}");
  });

  it("knows every route of the subset, and the organization key and project routes of the full document", () => {
    const operations = contractOperations().map((o) => `${o.method} ${o.template}`);
    expect(operations).toHaveLength(15 + 3 + 4);
    expect(operations).toEqual(
      expect.arrayContaining([
        "GET /organizations/{org_id}/api_keys",
        "POST /organizations/{org_id}/api_keys",
        "DELETE /organizations/{org_id}/api_keys/{key_id}",
        "POST /projects",
        "GET /projects/{project_id}",
        "PATCH /projects/{project_id}",
        "DELETE /projects/{project_id}",
      ]),
    );
  });
});

describe("validateResponse", () => {
  it("accepts a conforming create-compute response at 201", () => {
    expect(validateResponse("POST", createPath, 201, { endpoint, operations: [operation] })).toEqual([]);
  });

  it("rejects a body missing a required field, naming the field", () => {
    const { host: _host, ...withoutHost } = endpoint;
    const problems = validateResponse("POST", createPath, 201, { endpoint: withoutHost, operations: [] });
    expect(problems.join("\n")).toMatch(/host/);
  });

  it("accepts a compute without the deprecated pooler fields, still requires every other field", () => {
    const { pooler_enabled: _e, pooler_mode: _m, ...withoutPooler } = endpoint;
    expect(validateResponse("POST", createPath, 201, { endpoint: withoutPooler, operations: [] })).toEqual([]);
    const { disabled: _d, ...withoutDisabled } = withoutPooler;
    const problems = validateResponse("POST", createPath, 201, { endpoint: withoutDisabled, operations: [] });
    expect(problems.join("\n")).toMatch(/required property 'disabled'/);
    const wrongType = { endpoint: { ...endpoint, pooler_enabled: "yes" }, operations: [] };
    expect(validateResponse("POST", createPath, 201, wrongType).join("\n")).toMatch(/pooler_enabled/);
  });

  it("accepts extra fields where the contract does not forbid them", () => {
    const body = { endpoint: { ...endpoint, emulator_note: "x" }, operations: [], extra_top: 1 };
    expect(validateResponse("POST", createPath, 201, body)).toEqual([]);
  });

  it("rejects wrong types, enum values and date-time formats", () => {
    const bad = { ...endpoint, autoscaling_limit_min_cu: "1", current_state: "running", created_at: "yesterday" };
    const problems = validateResponse("GET", onePath, 200, { endpoint: bad });
    expect(problems).toHaveLength(3);
  });

  it("treats nullable fields as nullable (last_used_at of a never-used key)", () => {
    const key = {
      id: 1,
      name: "k",
      created_at: "2022-11-15T20:13:35Z",
      created_by: { id: "629982cc-de05-43db-ae16-28f2399c4910", name: "n", image: "" },
      last_used_at: null,
      last_used_from_addr: "",
    };
    expect(validateResponse("GET", "/api_keys", 200, [key])).toEqual([]);
    expect(validateResponse("GET", "/api_keys", 200, [{ ...key, last_used_at: 5 }])).toHaveLength(1);
  });

  it("validates the organization key routes with the full document's schemas (project_id optional, its pattern)", () => {
    const orgKeys = "/organizations/org-morning-bread-81040908/api_keys";
    const created = {
      id: 1,
      key: "k".repeat(64),
      name: "ci",
      created_at: "2022-11-15T20:13:35Z",
      created_by: "629982cc-de05-43db-ae16-28f2399c4910",
    };
    expect(validateResponse("POST", orgKeys, 200, created)).toEqual([]);
    expect(validateResponse("POST", orgKeys, 200, { ...created, project_id: "spring-example-302709" })).toEqual([]);
    expect(validateResponse("POST", orgKeys, 200, { ...created, project_id: "Not An Id" }).join()).toMatch(/pattern/);
    const { key: _key, ...withoutKey } = created;
    expect(validateResponse("POST", orgKeys, 200, withoutKey).join()).toMatch(/required property 'key'/);
    const listed = {
      id: 1,
      name: "ci",
      created_at: "2022-11-15T20:13:35Z",
      created_by: { id: "629982cc-de05-43db-ae16-28f2399c4910", name: "n", image: "" },
      last_used_at: null,
      last_used_from_addr: "",
      project_id: "spring-example-302709",
    };
    expect(validateResponse("GET", orgKeys, 200, [listed])).toEqual([]);
    expect(validateResponse("GET", orgKeys, 200, [{ ...listed, created_by: "x" }])).not.toEqual([]);
    const { key: _k, ...revokedBase } = created;
    const revoked = { ...revokedBase, last_used_at: null, last_used_from_addr: "", revoked: true };
    expect(validateResponse("DELETE", `${orgKeys}/1`, 200, revoked)).toEqual([]);
    expect(validateResponse("DELETE", `${orgKeys}/1`, 200, { ...revoked, revoked: "yes" })).toHaveLength(1);
    expect(validateResponse("GET", orgKeys, 404, { code: "", message: "not a member" })).toEqual([]);
  });

  it("validates the project routes with the full document's schemas (Project's required fields, CreatedProject)", () => {
    const project = {
      id: "spring-example-302709",
      platform_id: "aws",
      region_id: "aws-us-east-2",
      name: "p",
      provisioner: "k8s-neonvm",
      pg_version: 17,
      proxy_host: "us-east-2.aws.neon.tech",
      branch_logical_size_limit: 512,
      branch_logical_size_limit_bytes: 536870912,
      store_passwords: true,
      cpu_used_sec: 0,
      creation_source: "console",
      history_retention_seconds: 86400,
      created_at: "2022-12-13T01:30:55Z",
      updated_at: "2022-12-13T01:30:55Z",
      owner_id: "629982cc-de05-43db-ae16-28f2399c4910",
      data_storage_bytes_hour: 0,
      data_transfer_bytes: 0,
      written_data_bytes: 0,
      compute_time_seconds: 0,
      active_time_seconds: 0,
      consumption_period_start: "2022-12-01T00:00:00Z",
      consumption_period_end: "2023-01-01T00:00:00Z",
    };
    const one = `/projects/${project.id}`;
    expect(validateResponse("GET", one, 200, { project })).toEqual([]);
    expect(validateResponse("DELETE", one, 200, { project })).toEqual([]);
    expect(validateResponse("PATCH", one, 200, { project, operations: [operation] })).toEqual([]);
    expect(validateResponse("PATCH", one, 200, { project }).join()).toMatch(/required property 'operations'/);
    const { history_retention_seconds: _h, ...withoutRetention } = project;
    expect(validateResponse("GET", one, 200, { project: withoutRetention }).join()).toMatch(
      /history_retention_seconds/,
    );
    const made = { project, connection_uris: [], roles: [], databases: [], operations: [], branch: {}, endpoints: [] };
    expect(validateResponse("POST", "/projects", 201, made).join()).toMatch(/branch/); // a Branch lacks its fields
    const { connection_uris: _c, ...withoutUris } = made;
    expect(validateResponse("POST", "/projects", 201, withoutUris).join()).toMatch(/connection_uris/);
    expect(validateResponse("POST", "/projects", 200, made).join()).toMatch(/status 200 is not documented/);
  });

  it("reports a success status the route does not document (create compute answering 200)", () => {
    const problems = validateResponse("POST", createPath, 200, { endpoint, operations: [] });
    expect(problems.join()).toMatch(/status 200 is not documented/);
  });

  it("validates error statuses against GeneralError", () => {
    expect(validateResponse("GET", onePath, 404, { code: "", message: "endpoint not found", request_id: "r" })).toEqual(
      [],
    );
    expect(validateResponse("GET", onePath, 404, { error: "not found" }).join()).toMatch(/code|message/);
    expect(validateResponse("GET", onePath, 500, "<html>oops</html>")).not.toEqual([]);
  });

  it("validates errors of unknown routes and methods as GeneralError, and reports their successes", () => {
    expect(validateResponse("PUT", onePath, 405, { code: "", message: "method not allowed" })).toEqual([]);
    expect(validateResponse("GET", "/nope", 404, { code: "", message: "not found" })).toEqual([]);
    expect(validateResponse("GET", "/nope", 200, {}).join()).toMatch(/route not in the contract/);
    expect(validateResponse("PUT", onePath, 200, {}).join()).toMatch(/method not in the contract/);
  });

  it("accepts 204 without a body on delete and rejects a body there", () => {
    expect(validateResponse("DELETE", onePath, 204, undefined)).toEqual([]);
    expect(validateResponse("DELETE", onePath, 204, { endpoint })).toHaveLength(1);
  });

  it("requires a non-empty pagination cursor when pagination is present", () => {
    const body = { projects: [], pagination: { cursor: "" }, applications: {}, integrations: {} };
    expect(validateResponse("GET", "/projects", 200, body).join()).toMatch(/cursor/);
  });
});

describe("assertMatchesContract", () => {
  it("throws one readable error listing the problems", () => {
    expect(() => assertMatchesContract("GET", onePath, 200, { endpoint: {} })).toThrow(
      /does not match the OpenAPI contract[^:]*:[\s\S]*must have required property 'host'/,
    );
  });
});

describe("ContractRecorder", () => {
  it("checks /projects/shared as /projects and skips the success bodies of routes outside the subset", () => {
    const recorder = new ContractRecorder();
    expect(recorder.check("GET", "/projects/shared", 200, { projects: [] }).join()).toMatch(/applications/);
    expect(recorder.check("GET", "/projects/p/branches", 200, { branches: [] })).toEqual([]);
    expect(recorder.check("GET", "/projects/p/branches", 401, {}).join()).toMatch(/message/);
    expect(recorder.check("GET", "/api_keys", 200, [], "text/html").join()).toMatch(/content-type/);
    expect(recorder.uncovered).toEqual(["GET /projects/p/branches → 200"]);
    expect(() => recorder.assertClean()).toThrow(/problem\(s\) in responses/);
  });
});
