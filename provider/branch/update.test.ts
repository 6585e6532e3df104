/**
 * Annotations after creation (annotations.ts): Neon documents no way to change them, so the update sends
 * `annotation_value` beside the PATCH and reads the branch back. The emulator ignores the field (it models only what
 * is documented); here a scripted service over real HTTP plays the three answers a real service may give: it
 * applies them, ignores them, or refuses them.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { ResourceInitError } from "../shared/errors";
import { configure } from "../shared/runtime";
import { updateBranch } from "./update";

type Behaviour = "applies" | "ignores" | "refuses";

const ID = "br-odd-sun-12345678";
const PROJECT = "spring-example-302709";
const record = {
  id: ID,
  project_id: PROJECT,
  parent_id: "br-main-00000001",
  parent_lsn: "0/1A0001F8",
  name: "dev",
  current_state: "ready",
  state_changed_at: "2026-03-01T12:00:00Z",
  logical_size: 0,
  creation_source: "console",
  default: false,
  protected: false,
  compute_time_seconds: 0,
  active_time_seconds: 0,
  written_data_bytes: 0,
  data_transfer_bytes: 0,
  created_at: "2026-03-01T12:00:00Z",
  updated_at: "2026-03-01T12:00:00Z",
  init_source: "parent-data",
};

let server: http.Server;
let behaviour: Behaviour;
let branch: Record<string, unknown>;
let annotation: Record<string, string>;
let patches: Record<string, unknown>[];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method === "GET")
        return reply(200, { branch, annotation: { object: { type: "console/branch", id: ID }, value: annotation } });
      const body = JSON.parse(text) as { branch: Record<string, unknown>; annotation_value?: Record<string, string> };
      patches.push(body);
      if (body.annotation_value !== undefined && behaviour === "refuses")
        return reply(400, { code: "", message: "annotation_value: unknown field", request_id: "r" });
      if (body.annotation_value !== undefined && behaviour === "applies") annotation = body.annotation_value;
      branch = { ...branch, ...body.branch };
      return reply(200, { branch, operations: [] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const config: Record<string, string> = {
    "neon:apiKey": "k".repeat(64),
    "neon:apiUrl": `http://127.0.0.1:${port}/api/v2`,
  };
  configure({ get: (key) => config[key] });
});
afterAll(() => {
  configure(undefined);
  server.close();
});
beforeEach(() => {
  branch = { ...record };
  annotation = { ref: "main" };
  patches = [];
});

const olds = {
  branchId: ID,
  projectId: PROJECT,
  name: "dev",
  annotations: { ref: "main" },
  resourceName: "dev",
  declared: ["annotations", "name", "projectId", "resourceName"],
  origin: { parentId: "br-main-00000001" },
};

async function failureOf(promise: Promise<unknown>): Promise<ResourceInitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceInitError);
  return error as ResourceInitError;
}

describe("an update of a branch's annotations", () => {
  it("a service that applies them: one PATCH carrying annotation_value beside branch, then read back", async () => {
    behaviour = "applies";
    const outputs = await updateBranch(ID, olds, { ...olds, annotations: { ref: "dev" } });
    expect(patches).toEqual([{ branch: {}, annotation_value: { ref: "dev" } }]);
    expect(outputs.annotations).toEqual({ ref: "dev" });
  });

  it("a service that ignores them: the update fails saying so and to replace, recording what the service has", async () => {
    behaviour = "ignores";
    const error = await failureOf(updateBranch(ID, olds, { ...olds, name: "dev-2", annotations: { ref: "dev" } }));
    expect(patches).toEqual([{ branch: { name: "dev-2" }, annotation_value: { ref: "dev" } }]);
    expect(error.message).toContain(`Branch "dev" (${ID}): the service did not apply the new annotations`);
    expect(error.message).toContain("The other changes of this update were applied");
    expect(error.message).toContain("pulumi up --replace <its URN>");
    expect(error.message).not.toContain("ref"); // names no annotation
    expect(error.id).toBe(ID);
    expect(error.properties).toMatchObject({ name: "dev-2", annotations: { ref: "main" } });
  });

  it("a service that refuses them: the other fields are sent again alone, and the refusal is said", async () => {
    behaviour = "refuses";
    const error = await failureOf(updateBranch(ID, olds, { ...olds, name: "dev-2", annotations: { ref: "dev" } }));
    expect(patches).toEqual([
      { branch: { name: "dev-2" }, annotation_value: { ref: "dev" } },
      { branch: { name: "dev-2" } },
    ]);
    expect(error.message).toContain(
      "the service refused the new annotations (HTTP 400: annotation_value: unknown field",
    );
    expect(error.properties).toMatchObject({ name: "dev-2", annotations: { ref: "main" } });
  });

  it("a refusal of annotations alone sends nothing more", async () => {
    behaviour = "refuses";
    const error = await failureOf(updateBranch(ID, olds, { ...olds, annotations: {} }));
    expect(patches).toHaveLength(1);
    expect(error.properties.annotations).toEqual({ ref: "main" });
  });

  it("an update without annotations sends no annotation_value", async () => {
    behaviour = "refuses";
    await updateBranch(ID, olds, { ...olds, name: "dev-3" });
    expect(patches).toEqual([{ branch: { name: "dev-3" } }]);
  });
});
