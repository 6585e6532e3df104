import { NeonError } from "../sdk";
import { AUTH_HINT, hintFor, Situation, withHints } from "./hints";

const ORG = "org-morning-bread-81040908";
const PROJECT = "spring-example-302709";

const refused = (status: number) =>
  new NeonError({ kind: status === 404 ? "not_found" : "auth", status, message: "the service's own words" });

/**
 * The advice after a refusal fits the request: a 403 hint written for project-scoped keys was added to every 403 (a
 * member creating an organization-wide key was told about project scopes), and a 404 got no advice at all.
 */
describe("hintFor", () => {
  it.each<[string, Situation, number, string[], string[]]>([
    [
      "a personal key's create refused",
      { op: "key-create" },
      403,
      ["Personal API keys are created with a personal key", "organization and project-scoped keys cannot create"],
      ["can use only its own project", "admin"],
    ],
    [
      "an organization-wide create refused",
      { op: "key-create", orgId: ORG },
      403,
      [`Only an admin of organization ${ORG} can create an organization-wide key`, "give the ApiKey a projectId"],
      ["can use only its own project"],
    ],
    [
      "a project-scoped create refused",
      { op: "key-create", orgId: ORG, projectId: PROJECT },
      403,
      [`Keys limited to a project of organization ${ORG} are created with the personal key of a member`],
      ["can use only its own project", "organization-wide"],
    ],
    [
      "an organization's key list refused",
      { op: "key-list", orgId: ORG },
      403,
      [`listed with a member's personal key or an organization key of ${ORG}`, "saved by the last `pulumi up`"],
      ["cannot create"],
    ],
    [
      "an organization key's revoke refused",
      { op: "key-revoke", orgId: ORG },
      403,
      [`revoked with an admin's personal key or an organization key of ${ORG}`],
      ["cannot create"],
    ],
    [
      "a personal key's revoke refused",
      { op: "key-revoke" },
      403,
      ["Personal API keys are listed and revoked with a personal key of their own account"],
      ["organization key of"],
    ],
    [
      "a compute request refused",
      { op: "compute", projectId: PROJECT },
      403,
      ["A project-scoped API key can use only its own project", `covers project ${PROJECT}`],
      ["API keys"],
    ],
    [
      "an organization's key routes answering 404",
      { op: "key-create", orgId: ORG, projectId: PROJECT },
      404,
      ["not a member", `orgId ${ORG}`, `project ${PROJECT} belongs to it`, "404 rather than 403"],
      [],
    ],
    [
      "a compute request answering 404",
      { op: "compute", projectId: PROJECT },
      404,
      ["404 rather than 403", `reaches project ${PROJECT}`],
      ["organization key of"],
    ],
  ])("%s", (_, situation, status, says, never) => {
    const hint = hintFor(refused(status), situation) ?? "";
    for (const text of says) expect(hint).toContain(text);
    for (const text of never) expect(hint).not.toContain(text);
  });

  it("401 is the rotated-key advice everywhere; a personal key's 404 and other errors get none", () => {
    expect(hintFor(refused(401), { op: "compute", projectId: PROJECT })).toBe(AUTH_HINT);
    expect(hintFor(refused(401), { op: "key-create", orgId: ORG })).toBe(AUTH_HINT);
    expect(hintFor(refused(404), { op: "key-list" })).toBeUndefined();
    expect(hintFor(new Error("plain"), { op: "key-create" })).toBeUndefined();
    expect(hintFor(new NeonError({ kind: "server", status: 500, message: "x" }), { op: "key-create" })).toBeUndefined();
  });
});

describe("withHints", () => {
  it("keeps the service's message first, then the advice for the situation the arguments describe", async () => {
    const failing = withHints(
      (orgId: string) => ({ op: "key-create", orgId }),
      async (_orgId: string) => {
        throw refused(403);
      },
    );
    const error = await failing(ORG).catch((e: Error) => e);
    expect(error.message).toMatch(/^HTTP 403: the service's own words\. Only an admin of organization /);
    expect(error.cause).toBeInstanceOf(NeonError);
  });

  it("lets other errors through unchanged", async () => {
    const plain = new Error("plain");
    const failing = withHints(
      () => ({ op: "key-list" }),
      async () => {
        throw plain;
      },
    );
    await expect(failing()).rejects.toBe(plain);
  });
});
