import { NeonError } from "../../client";
import { poolerRefusal, refusalAbout } from "./refusal";

const refused = (message: string, status = 400) =>
  new NeonError({ kind: "validation", message, status, method: "PATCH", path: "/projects/p/endpoints/ep-1" });

describe("refusalAbout: what a refusal is about, from the service's message", () => {
  const fields = { branch_id: "br-b-1", autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 4, name: "x" };

  it.each([
    ["endpoint.branch_id is not accepted in an update", "subject"],
    ["Moving an endpoint to another Branch is no longer supported", "subject"],
    ["endpoint.autoscaling_limit_max_cu: 4 exceeds the Free plan's limit of 2 CU", "other"],
    ["invalid request", "unclear"],
    ["the name is too long", "unclear"], // a common word names no field
  ])("%s → %s", (message, about) => {
    expect(refusalAbout(refused(message), /branch/i, fields, ["branch_id"])).toBe(about);
  });

  it("judges only refusals (400, 422): not a conflict, not a server error", () => {
    const conflict = new NeonError({ kind: "conflict", message: "branch has a primary", status: 409 });
    expect(refusalAbout(conflict, /branch/i, fields, ["branch_id"])).toBeUndefined();
    expect(refusalAbout(new Error("branch"), /branch/i, fields, ["branch_id"])).toBeUndefined();
  });

  it("reads the service's own message, not the request's path around it", () => {
    const error = new NeonError({ kind: "validation", message: "bad", status: 400, path: "/projects/p/branches/b" });
    expect(refusalAbout(error, /branch/i, fields, ["branch_id"])).toBe("unclear");
  });
});

describe("poolerRefusal: a refused request that carried the deprecated pooler fields", () => {
  const sent = { branch_id: "br-b-1", type: "read_write", pooler_enabled: true, pooler_mode: "transaction" };

  it("keeps the service's message first and says to remove the inputs, whatever the wording mentioning pooler", () => {
    for (const message of [
      "endpoint.pooler_enabled: not accepted",
      "unknown field 'pooler_mode'",
      "Pooler settings are gone",
    ]) {
      const error = poolerRefusal(refused(message), sent);
      expect(error?.message.startsWith(`HTTP 400: ${message}`)).toBe(true);
      expect(error?.message).toContain("remove poolerEnabled and poolerMode from the program");
      expect(error?.message).toContain("poolerHost");
      expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(NeonError);
    }
  });

  it("names only the inputs the program set", () => {
    const error = poolerRefusal(refused("pooler_mode is not accepted"), { pooler_mode: "transaction" });
    expect(error?.message).toContain("remove poolerMode from the program");
    expect(error?.message).not.toContain("poolerEnabled");
  });

  it("says it conditionally when the message names nothing it can tell", () => {
    const error = poolerRefusal(refused("invalid request body"), sent);
    expect(error?.message).toMatch(/^HTTP 400: invalid request body.*; if the refusal is about them, remove/);
  });

  it("stays out of refusals about another field, of requests without pooler fields, and of other errors", () => {
    const plan = refused("endpoint.autoscaling_limit_max_cu: 4 exceeds the Free plan's limit of 2 CU");
    expect(poolerRefusal(plan, { ...sent, autoscaling_limit_max_cu: 4 })).toBeUndefined();
    expect(poolerRefusal(refused("pooler is gone"), { branch_id: "br-b-1" })).toBeUndefined();
    const conflict = new NeonError({ kind: "conflict", message: "pooler", status: 409 });
    expect(poolerRefusal(conflict, sent)).toBeUndefined();
  });
});
