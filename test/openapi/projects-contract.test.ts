/**
 * The emulator's project create, get, update and delete against the contract (`contract.ts`: those routes come from the
 * official full document, FROM_FULL_DOCUMENT): every response, success or refusal, validates against the schema the
 * document gives for its operation and status (`CreatedProject`, `ProjectResponse` with `OperationsResponse`,
 * `GeneralError`). Guards against a project body missing one of `Project`'s many required fields.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { TestClient, type Res } from "../../emulator/test-client";
import { validateResponse } from "./contract";

function expectConforms(method: string, path: string, res: Res, status: number): void {
  expect([method, path, res.status]).toEqual([method, path, status]);
  expect(validateResponse(method, path, res.status, res.body)).toEqual([]);
}

describe("project routes against the official document", () => {
  let em: Emulator;
  let c: TestClient;
  beforeAll(async () => {
    em = await startEmulator({
      manualClock: true,
      rateLimit: false,
      operationDurationMs: 1000,
      organization: "org-acme-1",
    });
    c = new TestClient(em.baseUrl, em.apiKey);
  });
  afterAll(async () => {
    c.close();
    await em.close();
  });

  it("create, get, update, delete, each as the document shapes it", async () => {
    const made = await c.post("/projects", { project: { name: "contract" } });
    expectConforms("POST", "/projects", made, 201);
    const one = `/projects/${made.body.project.id}`;
    expectConforms("GET", one, await c.get(one), 200);
    expectConforms("PATCH", one, await c.patch(one, { project: { name: "x" } }), 423); // its operations run
    em.clock.advance(2000);
    const settings = { enable_logical_replication: true, allowed_ips: { ips: ["203.0.113.0"] } };
    const updated = await c.patch(one, { project: { name: "renamed", history_retention_seconds: 3600, settings } });
    expectConforms("PATCH", one, updated, 200);
    expect(updated.body.operations.map((o: { action: string }) => o.action)).toEqual(["suspend_compute"]);
    em.clock.advance(1000);
    expectConforms("DELETE", one, await c.del(one), 200);
    expectConforms("GET", one, await c.get(one), 404);
  });

  it("with every input set, in an organization; refusals are GeneralError bodies", async () => {
    const project = {
      name: "full",
      region_id: "aws-eu-central-1",
      pg_version: 16,
      org_id: "org-acme-1",
      history_retention_seconds: 0,
      store_passwords: false,
      default_endpoint_settings: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 4, pg_settings: { a: "b" } },
      settings: { maintenance_window: { weekdays: [1, 7], start_time: "01:00", end_time: "02:30" }, hipaa: false },
      branch: { name: "trunk", database_name: "shop", role_name: "app", annotations: { team: "x" } },
    };
    const made = await c.post("/projects", { project });
    expectConforms("POST", "/projects", made, 201);
    expectConforms("POST", "/projects", await c.post("/projects", { project: { pg_version: 13 } }), 400);
    const one = `/projects/${made.body.project.id}`;
    expectConforms("PATCH", one, await c.patch(one, { project: { region_id: "aws-us-east-1" } }), 400);
  });
});
