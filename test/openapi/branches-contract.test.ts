/**
 * The emulator's branch, role, database and connection URI routes against the official full OpenAPI document
 * (`../shared/reference/neon-openapi.yaml`): every success body the routes give validates against the response schema the
 * document gives for its operation and status. An independent check of the shapes an SDK written from the same
 * document expects (`{branch, operations}`, `{role, operations}`, `{roles}`, `{password}`, `{uri}`, …).
 */
import * as fs from "fs";
import * as path from "path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { startEmulator, type Emulator } from "../../emulator";
import { TestClient, type Res } from "../../emulator/test-client";
import { findRepoRoot } from "./contract";
import { CONTRACT_SCHEMA_ID, collectFormats, convertSchema, isObject, type JsonObject } from "./schema-convert";

let doc: JsonObject;
let ajv: Ajv;
const compiled = new Map<string, ValidateFunction>();

beforeAll(() => {
  const file = path.join(findRepoRoot(), "..", "shared", "reference", "neon-openapi.yaml");
  doc = parse(fs.readFileSync(file, "utf8")) as JsonObject;
  ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const format of collectFormats(doc)) if (!ajv.formats[format]) ajv.addFormat(format, true);
  const schemas = (doc.components as JsonObject).schemas;
  ajv.addSchema({ $id: CONTRACT_SCHEMA_ID, definitions: convertSchema(schemas) as JsonObject });
});

/** The document's schema of one operation's response (following `#/components/responses/…`). */
function validatorFor(method: string, template: string, status: number): ValidateFunction {
  const key = `${method} ${template} ${status}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const item = (doc.paths as JsonObject)[template] as JsonObject;
  const operation = item[method.toLowerCase()] as JsonObject;
  let response = (operation.responses as JsonObject)[String(status)] as JsonObject;
  if (typeof response.$ref === "string") {
    const name = response.$ref.replace("#/components/responses/", "");
    response = ((doc.components as JsonObject).responses as JsonObject)[name] as JsonObject;
  }
  const content = response.content as JsonObject;
  const media = content["application/json"];
  if (!isObject(media)) throw new Error(`${key}: no JSON body documented`);
  const validate = ajv.compile(convertSchema(media.schema) as object);
  compiled.set(key, validate);
  return validate;
}

function expectConforms(method: string, template: string, res: Res, status: number): void {
  expect(res.status).toBe(status);
  const validate = validatorFor(method, template, status);
  const ok = validate(res.body);
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message}`);
  expect([`${method} ${template} → ${status}`, ok ? [] : problems]).toEqual([`${method} ${template} → ${status}`, []]);
}

const BRANCHES = "/projects/{project_id}/branches";
const BRANCH = `${BRANCHES}/{branch_id}`;
const ROLES = `${BRANCH}/roles`;
const ROLE = `${ROLES}/{role_name}`;
const DATABASES = `${BRANCH}/databases`;
const DATABASE = `${DATABASES}/{database_name}`;

describe("branch, role, database and connection URI responses match the official OpenAPI document", () => {
  let em: Emulator;
  let c: TestClient;
  beforeAll(async () => {
    em = await startEmulator({ manualClock: true, rateLimit: false, operationDurationMs: 0 });
    c = new TestClient(em.baseUrl, em.apiKey);
  });
  afterAll(async () => {
    c.close();
    await em.close();
  });

  it("branches: create, list, get, update, restore, delete", async () => {
    const p = `/projects/${em.projectId}/branches`;
    const expires = new Date(em.clock.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const made = await c.post(p, {
      branch: { name: "contract", expires_at: expires },
      endpoints: [{ type: "read_write" }],
      annotation_value: { k: "v" },
    });
    expectConforms("POST", BRANCHES, made, 201);
    const id = made.body.branch.id;
    expectConforms("GET", BRANCHES, await c.get(`${p}?limit=2&sort_by=name`), 200);
    expectConforms("GET", BRANCH, await c.get(`${p}/${id}`), 200);
    expectConforms("GET", BRANCH, await c.get(`${p}/${em.branches.dev}`), 200); // an annotation without a value
    expectConforms(
      "PATCH",
      BRANCH,
      await c.patch(`${p}/${id}`, { branch: { name: "renamed", expires_at: null } }),
      200,
    );
    const restored = await c.post(`${p}/${id}/restore`, {
      source_branch_id: em.branches.main,
      preserve_under_name: "old",
    });
    expectConforms("POST", `${BRANCH}/restore`, restored, 200);
    expectConforms("DELETE", BRANCH, await c.del(`${p}/${em.branches.staging}`), 200);
  });

  it("roles and databases, and the connection URI", async () => {
    const b = `/projects/${em.projectId}/branches/${em.branches.main}`;
    expectConforms("POST", ROLES, await c.post(`${b}/roles`, { role: { name: "app" } }), 201);
    expectConforms("GET", ROLES, await c.get(`${b}/roles`), 200);
    expectConforms("GET", ROLE, await c.get(`${b}/roles/app`), 200);
    expectConforms("GET", `${ROLE}/reveal_password`, await c.get(`${b}/roles/app/reveal_password`), 200);
    expectConforms("POST", `${ROLE}/reset_password`, await c.post(`${b}/roles/app/reset_password`), 200);
    const db = await c.post(`${b}/databases`, { database: { name: "shop", owner_name: "app" } });
    expectConforms("POST", DATABASES, db, 201);
    expectConforms("GET", DATABASES, await c.get(`${b}/databases`), 200);
    expectConforms("GET", DATABASE, await c.get(`${b}/databases/shop`), 200);
    expectConforms("PATCH", DATABASE, await c.patch(`${b}/databases/shop`, { database: { name: "store" } }), 200);
    const uri = await c.get(`/projects/${em.projectId}/connection_uri?database_name=store&role_name=app&pooled=true`);
    expectConforms("GET", "/projects/{project_id}/connection_uri", uri, 200);
    expectConforms("DELETE", DATABASE, await c.del(`${b}/databases/store`), 200);
    expectConforms("DELETE", ROLE, await c.del(`${b}/roles/app`), 200);
  });
});
