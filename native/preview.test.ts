import { BRANCH } from "../provider/branch/declaration";
import { UNKNOWN } from "../provider/shared/unknown";
import { previewCreate, previewUpdate } from "./preview";
import { servedOf } from "./resources";

/**
 * A preview's Create and Update (the plugin supports previews). Without them the engine took an update's inputs for
 * its outputs, so a Branch's `branchId` turned unknown in a preview of its rename, and the Role, Database and Compute
 * on it previewed as replaced or restarted; `pulumi up` then changed only the branch (review of issue 25).
 */
const branch = servedOf("neon:index:Branch");
const role = servedOf("neon:index:Role");
const branchState = {
  projectId: "p-1",
  name: "dev",
  branchId: "br-1",
  protected: false,
  createdAt: "2026-11-29T00:00:00Z",
};

it("an update keeps the outputs no input sets (the branch's id), and takes the new inputs", () => {
  const preview = previewUpdate(branch.lifecycle, branchState, { projectId: "p-1", name: "dev-2", protected: true });
  expect(preview).toEqual({ ...branchState, name: "dev-2", protected: true });
});

it("an update's output that changes though no input sets it is unknown: a role's password when it is reset", () => {
  const olds = { projectId: "p-1", branchId: "br-1", name: "app", password: "old", passwordTriggers: ["1"] };
  expect(previewUpdate(role.lifecycle, olds, { ...olds, passwordTriggers: ["2"] }).password).toBe(UNKNOWN);
  expect(previewUpdate(role.lifecycle, olds, { ...olds }).password).toBe("old");
});

it("a create: the inputs, and every other declared output unknown", () => {
  const preview = previewCreate(BRANCH, { projectId: "p-1", name: "dev" });
  expect(preview).toMatchObject({ projectId: "p-1", name: "dev", branchId: UNKNOWN, createdAt: UNKNOWN });
  expect(Object.keys(preview).sort()).toEqual(
    [...new Set([...Object.keys(BRANCH.outputs), "projectId", "name"])].sort(),
  );
});
