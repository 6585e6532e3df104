/**
 * Annotations after creation (refusal.ts, `annotationsChangeError`): no call changes them, so an update never sends them, whatever a
 * service would do with an `annotation_value` beside the PATCH (apply, ignore or refuse it: unknown). A scripted
 * service over real HTTP records every request, and would apply one, so that a sent one would show.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { configure } from "../shared/runtime";
import { updateBranch } from "./changes";
import { BRANCH_RECORD } from "./branch-record.test-fixture";

const ID = "br-odd-sun-12345678";
const PROJECT = "spring-example-302709";

let server: http.Server;
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
      if (body.annotation_value !== undefined) annotation = body.annotation_value;
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
  branch = { ...BRANCH_RECORD, id: ID, project_id: PROJECT };
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

describe("an update of a branch's annotations", () => {
  it("a change is refused before anything is sent, naming the keys and not the values, and the way out", async () => {
    const failed = updateBranch(ID, olds, { ...olds, name: "dev-2", annotations: { ref: "dev", pr: "42" } });
    const error = await failed.then(
      () => new Error("resolved"),
      (e: Error) => e,
    );
    expect(error.message).toBe(
      `Branch "dev" (${ID}): annotations: cannot change on an existing branch: Neon sets a branch's annotations only ` +
        `when it creates it (no documented call updates them), and this change would add "pr" (a string of 2 ` +
        `characters), set "ref" from a string of 4 characters to a string of 3 characters (values not shown: they ` +
        `may be secrets). Set annotations back to what they were, or recreate the branch with a new value of the ` +
        `resource option replacementTrigger (a new branch from its parent's data: this branch's own changes are ` +
        `deleted with it). See docs/resources.md#branch (Annotations after creation)`,
    );
    expect(patches).toEqual([]);
    expect(annotation).toEqual({ ref: "main" });
  });

  it("removed from the program: recorded, nothing sent, the outputs keep the branch's", async () => {
    const outputs = await updateBranch(ID, olds, { ...olds, annotations: undefined });
    expect(patches).toEqual([]);
    expect(outputs.annotations).toEqual({ ref: "main" });
    expect(outputs.declared).not.toContain("annotations");
  });

  it("an update of other fields sends no annotation_value", async () => {
    const outputs = await updateBranch(ID, olds, { ...olds, name: "dev-3" });
    expect(patches).toEqual([{ branch: { name: "dev-3" } }]);
    expect(outputs).toMatchObject({ name: "dev-3", annotations: { ref: "main" } });
  });
});
