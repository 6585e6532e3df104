/**
 * A state the dynamic plugin wrote, read by the native plugin (moved.ts): `__provider` is dropped and nothing else, so
 * that a resource moved by an alias diffs as unchanged (test/cli/native-move.test.ts runs the move itself).
 */
import { fromDynamic, withoutDynamicProvider } from "./moved";

it("drops the dynamic provider and keeps every other property", () => {
  const state = { __provider: "exports.handler = __f0;", projectId: "p", declared: ["projectId"], key: "secret" };
  expect(fromDynamic(state)).toBe(true);
  expect(withoutDynamicProvider(state)).toEqual({ projectId: "p", declared: ["projectId"], key: "secret" });
  expect(state.__provider).toBe("exports.handler = __f0;"); // the received properties are not changed
});

it("leaves a native state as it is", () => {
  const state = { projectId: "p" };
  expect(fromDynamic(state)).toBe(false);
  expect(withoutDynamicProvider(state)).toBe(state);
});
