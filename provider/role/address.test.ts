import { recordedOutputs, roleAddressOf, roleId, cannotLogIn, toCreateBody, toOutputs } from "./declaration";

const record = {
  branch_id: "br-main",
  name: "app/user x",
  protected: false,
  authentication_method: "password",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-02T00:00:00Z",
};

describe("role mapping", () => {
  it("the id is project/branch/name, read back whatever the name holds", () => {
    const id = roleId({ projectId: "p-1", branchId: "br-main", name: "app/user x" });
    expect(id).toBe("p-1/br-main/app/user x");
    expect(roleAddressOf({}, id)).toEqual({ projectId: "p-1", branchId: "br-main", name: "app/user x" });
    expect(roleAddressOf({ projectId: "p-2", branchId: "br-b", name: "n" }, id)).toEqual({
      projectId: "p-2",
      branchId: "br-b",
      name: "n",
    });
  });

  it("outputs the record in camelCase, the carried triggers, and the password when known", () => {
    const inputs = { projectId: "p-1", branchId: "br-main", name: "app/user x", passwordTriggers: ["v1"] };
    expect(toOutputs(record, inputs, "pw")).toEqual({
      projectId: "p-1",
      branchId: "br-main",
      name: "app/user x",
      noLogin: false,
      authenticationMethod: "password",
      protected: false,
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-02T00:00:00Z",
      passwordTriggers: ["v1"],
      password: "pw",
    });
    expect(toOutputs(record, inputs, undefined)).not.toHaveProperty("password");
  });

  it("noLogin comes from the service's authentication_method, else from the input", () => {
    expect(toOutputs({ ...record, authentication_method: "no_login" }, { projectId: "p" }, undefined).noLogin).toBe(
      true,
    );
    const { authentication_method: _, ...bare } = record;
    expect(toOutputs(bare, { projectId: "p", noLogin: true }, undefined).noLogin).toBe(true);
    expect(toOutputs(bare, { projectId: "p" }, undefined)).not.toHaveProperty("authenticationMethod");
    expect(cannotLogIn({ authenticationMethod: "no_login" })).toBe(true);
    expect(cannotLogIn({ noLogin: false, authenticationMethod: "password" })).toBe(false);
  });

  it("sends no_login only when asked for", () => {
    expect(toCreateBody({ name: "a" })).toEqual({ name: "a" });
    expect(toCreateBody({ name: "a", noLogin: false })).toEqual({ name: "a" });
    expect(toCreateBody({ name: "a", noLogin: true })).toEqual({ name: "a", no_login: true });
  });

  it("an update that sends nothing keeps the role and its password, and records the triggers as given", () => {
    const olds = { name: "a", password: "pw", passwordTriggers: ["v1"] };
    expect(recordedOutputs(olds, { name: "a" })).toEqual({ name: "a", password: "pw" });
    expect(recordedOutputs(olds, { name: "a", passwordTriggers: ["v2"] })).toMatchObject({ passwordTriggers: ["v2"] });
  });
});
