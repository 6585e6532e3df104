import type { Branch } from "../../sdk";
import {
  inputsFromOutputs,
  originOf,
  originOfRecord,
  outputsWith,
  recordedOutputs,
  toCreateBody,
  toOutputs,
  toPatchFields,
} from "./mapping";

const record = {
  id: "br-odd-sun-12345678",
  project_id: "spring-example-302709",
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
  expires_at: "2026-03-02T12:00:00Z",
} as Branch;

describe("toCreateBody", () => {
  it("sends only what the program set, the resolved parent, and annotations as annotation_value", () => {
    const inputs = { projectId: "p", name: "dev", parentTimestamp: "2026-03-01T10:00:00Z", annotations: { a: "b" } };
    expect(toCreateBody({ ...inputs, resourceName: "dev", resetTriggers: [1] }, "br-main-1")).toEqual({
      branch: { name: "dev", parent_timestamp: "2026-03-01T10:00:00Z", parent_id: "br-main-1" },
      annotation_value: { a: "b" },
    });
    expect(toCreateBody({ initSource: "schema-only", protected: true }, undefined)).toEqual({
      branch: { init_source: "schema-only", protected: true },
    });
  });
});

describe("toPatchFields", () => {
  it("carries only the changed fields; a removed expiry is null (removes it)", () => {
    expect(toPatchFields({ name: "x", protected: true, expiresAt: "t" }, ["name"])).toEqual({ name: "x" });
    expect(toPatchFields({ protected: false }, ["protected", "expiresAt"])).toEqual({
      protected: false,
      expires_at: null,
    });
  });
  it("a removed protection is protected: false (unprotects)", () => {
    expect(toPatchFields({ name: "x" }, ["protected"])).toEqual({ protected: false });
  });
});

describe("outputs", () => {
  it("are the record in camelCase, with the annotations read back and the provider's records", () => {
    const inputs = { projectId: "p", name: "dev", resetTriggers: ["v1"], resourceName: "dev" };
    const outputs = outputsWith(record, { a: "b" }, inputs, originOf(inputs, "br-main-00000001"));
    expect(outputs).toMatchObject({
      branchId: record.id,
      parentId: "br-main-00000001",
      parentLsn: "0/1A0001F8",
      default: false,
      currentState: "ready",
      expiresAt: "2026-03-02T12:00:00Z",
      annotations: { a: "b" },
      resetTriggers: ["v1"],
      declared: ["name", "projectId", "resetTriggers", "resourceName"],
      origin: { parentId: "br-main-00000001" },
    });
    expect(outputs).not.toHaveProperty("primary"); // deprecated by Neon: `default`
  });

  it("keep the annotations last known when an answer carries none", () => {
    expect(toOutputs(record, undefined, { annotations: { a: "b" } }).annotations).toEqual({ a: "b" });
  });

  it("a refresh hands back the declared inputs: made-from ones from origin, the others from the record", () => {
    const outputs = toOutputs(
      { ...record, parent_lsn: "0/FFFF", name: "renamed" },
      {},
      {
        declared: ["name", "parentLsn", "projectId"],
        origin: { parentId: "br-main-00000001", parentLsn: "0/1DE2850" },
      },
    );
    expect(inputsFromOutputs(outputs)).toEqual({
      name: "renamed",
      parentLsn: "0/1DE2850",
      projectId: record.project_id,
    });
  });

  it("an update that sends nothing records the new carried inputs", () => {
    const olds = toOutputs(record, {}, { resetTriggers: [1], adoptId: record.id, declared: ["adoptId"] });
    const outputs = recordedOutputs(olds, { projectId: "p", resetTriggers: [1] });
    expect(outputs.adoptId).toBeUndefined();
    expect(outputs.declared).toEqual(["projectId", "resetTriggers"]);
  });

  it("an adopted branch's origin is its record's", () => {
    expect(originOfRecord(record)).toEqual({
      parentId: "br-main-00000001",
      parentLsn: "0/1A0001F8",
      initSource: "parent-data",
    });
  });
});
