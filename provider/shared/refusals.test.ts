import { NeonError } from "../../client";
import { refusalAbout } from "./refusals";

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
