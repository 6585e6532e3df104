import { NeonError } from "../../client";
import { argsProblem, explainRevealError, RoleLister } from "./get-role-password";

const args = { projectId: "p-1", branchId: "br-child-1", roleName: "neondb_owner" };
const notFound = (message: string) => new NeonError({ kind: "not_found", status: 404, message });
/** The service as far as the explanation reads it: the branch's roles, or a branch (or project) that is not there. */
const lister = (roles: string[] | "no branch" | "no project"): RoleLister => ({
  roles: {
    list: async () => {
      if (roles === "no branch") throw notFound("branch not found");
      if (roles === "no project") throw notFound("project not found");
      return roles.map((name) => ({ name }));
    },
  },
  branches: {
    list: async () => {
      if (roles === "no project") throw notFound("project not found");
      return [];
    },
  },
});
const error = (status: number, kind: NeonError["kind"], message: string) =>
  new NeonError({
    kind,
    status,
    message,
    method: "GET",
    path: "/projects/p-1/branches/br-child-1/roles/x/reveal_password",
  });

describe("getRolePassword's errors", () => {
  it("a role the branch lacks names the role, the branch and the roles it has", async () => {
    const explained = await explainRevealError(
      lister(["neondb_owner", "app"]),
      { ...args, roleName: "nobody" },
      error(404, "not_found", "role not found"),
    );
    expect(explained.message).toContain("getRolePassword: branch br-child-1 of project p-1 has no role named nobody");
    expect(explained.message).toContain("its roles: neondb_owner, app");
    expect(explained.message).toContain("HTTP 404: role not found");
  });

  it("a branch that does not answer in a project that does says so", async () => {
    const explained = await explainRevealError(lister("no branch"), args, error(404, "not_found", "branch not found"));
    expect(explained.message).toContain(
      "role neondb_owner of branch br-child-1 was not found, and neither was the branch",
    );
    expect(explained.message).toContain("project p-1 has no branch br-child-1; check the branchId");
  });

  it("a project that does not answer says so, not the branch, and that the key may not reach it", async () => {
    const said = error(404, "not_found", "project not found");
    const explained = await explainRevealError(lister("no project"), args, said, 'the apiKey of provider "other"');
    expect(explained.message).toContain("role neondb_owner was not found, and neither was project p-1");
    expect(explained.message).toContain('a project the apiKey of provider "other" does not reach');
    expect(explained.message).not.toContain("neither was the branch");
  });

  it("403 says which key may read it", async () => {
    const explained = await explainRevealError(lister([]), args, error(403, "auth", "forbidden"));
    expect(explained.message).toContain("A project-scoped API key can use only its own project");
    expect(explained.message).toContain("HTTP 403: forbidden");
  });

  it("412 says the project keeps no passwords, and what to do", async () => {
    const explained = await explainRevealError(
      lister([]),
      args,
      error(412, "validation", "Storing passwords is disabled"),
    );
    expect(explained.message).toContain("project p-1 keeps no role passwords the service can reveal");
  });

  it("refuses malformed arguments before any request, naming them", () => {
    expect(argsProblem(args)).toBeUndefined();
    expect(argsProblem({ ...args, branchId: "main" })).toContain("branchId must be a branch id");
    expect(argsProblem({ ...args, projectId: "P_1" })).toContain("projectId must be a project id");
    expect(argsProblem({ ...args, roleName: "" })).toContain("roleName");
  });
});
