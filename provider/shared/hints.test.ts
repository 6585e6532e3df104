import { NeonError } from "../../client";
import { hintFor, Situation, withHints } from "./hints";
import { authHint, Settings, urlPathHint } from "./settings-advice";
import { configure } from "./runtime";

const ORG = "org-morning-bread-81040908";
const PROJECT = "spring-example-302709";
const BRANCH = "br-odd-sun-12345678";

const refused = (status: number) =>
  new NeonError({ kind: status === 404 ? "not_found" : "auth", status, message: "the service's own words" });

/** An `up` (a program was checked) with the key and URL in the stack config. */
const UP: Settings = {
  apiUrl: "https://console.neon.tech/api/v2",
  apiUrlFrom: "default",
  apiKeyFrom: "neon:apiKey",
  byProgram: true,
};
/** A `refresh` or `destroy`: configured from the config saved by the last `up`. */
const SAVED: Settings = { ...UP, byProgram: false };

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
      "an organization's key list refused (a refresh: the key saved by the last up may be an old one)",
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
    [
      "a compute request answering 404 names the branch",
      { op: "compute", projectId: PROJECT, branchId: BRANCH },
      404,
      [`If project ${PROJECT} and branch ${BRANCH} exist`],
      [],
    ],
  ])("%s", (_, situation, status, says, never) => {
    const hint = hintFor(refused(status), situation, SAVED) ?? "";
    for (const text of says) expect(hint).toContain(text);
    for (const text of never) expect(hint).not.toContain(text);
  });

  it("a personal key's 404 and other errors get no advice", () => {
    expect(hintFor(refused(404), { op: "key-list" }, UP)).toBeUndefined();
    expect(hintFor(new Error("plain"), { op: "key-create" }, UP)).toBeUndefined();
    const server = new NeonError({ kind: "server", status: 500, message: "x" });
    expect(hintFor(server, { op: "key-create" }, UP)).toBeUndefined();
  });

  it("the saved-key advice of a refused key list comes only when the key in use may be an old one", () => {
    expect(hintFor(refused(403), { op: "key-list", orgId: ORG }, UP)).not.toContain("saved by the last");
    const fromEnvironment: Settings = { ...SAVED, apiKeyFrom: "NEON_API_KEY" };
    expect(hintFor(refused(403), { op: "key-list" }, fromEnvironment)).not.toContain("saved by the last");
  });
});

/**
 * Issue 19: a wrong key on a brand-new stack was told about key rotation. In an `up` the provider is configured with
 * the stack's current config, so the key is wrong or revoked: make one and set it. Only refresh and destroy, which use
 * the key saved by the last `up`, may be using an older key than the config holds: they get both.
 */
describe("authHint: a refused key (401)", () => {
  it.each([
    ["compute", { op: "compute", projectId: PROJECT }],
    ["key create", { op: "key-create", orgId: ORG }],
  ] as [string, Situation][])(
    "in an up (%s): check neon:apiKey, or create a key and set it; no rotation advice",
    (_, s) => {
      const hint = hintFor(refused(401), s, UP) ?? "";
      expect(hint).toContain("Neon refused the key in neon:apiKey: it is wrong, or it was revoked");
      expect(hint).toContain("create a key in the Neon console");
      expect(hint).toContain("`pulumi config set --secret neon:apiKey <key>`");
      expect(hint).not.toMatch(/saved by the last|rotated|changed neon:apiKey/);
    },
  );

  it("from NEON_API_KEY: names it, and says the stack config wins over it", () => {
    const hint = authHint({ ...UP, apiKeyFrom: "NEON_API_KEY" });
    expect(hint).toContain("the key in NEON_API_KEY (the stack config has no neon:apiKey)");
    expect(hint).toContain("the stack config wins over NEON_API_KEY");
    expect(authHint({ ...SAVED, apiKeyFrom: "NEON_API_KEY" })).not.toContain("saved by the last");
  });

  it("in a refresh or destroy with neon:apiKey: the saved key's advice, then how to make and set a new key", () => {
    const hint = authHint(SAVED);
    expect(hint).toMatch(
      /^If you changed neon:apiKey since the last `pulumi up`: `pulumi refresh` and `pulumi destroy` use/,
    );
    expect(hint).toContain("run `pulumi up` once with the new key");
    expect(hint).toContain("`pulumi destroy --run-program`");
    expect(hint).toContain("Otherwise the key is wrong, or it was revoked: create a key");
    expect(hint).toContain("`pulumi config set --secret neon:apiKey <key>`");
  });
});

/** Issue 19: `neon:apiUrl` pointing at nothing was retried for 2 minutes and reported without saying where it came from. */
describe("an address where nothing answers", () => {
  const refusedConnection = new NeonError({
    kind: "network",
    code: "ECONNREFUSED",
    message: "cannot reach the Neon API at http://127.0.0.1:1/api/v2: the connection was refused",
  });
  it.each<[Settings["apiUrlFrom"], string[]]>([
    [
      "neon:apiUrl",
      ["is neon:apiUrl (the stack config)", "pulumi config set neon:apiUrl <URL>", "pulumi config rm neon:apiUrl"],
    ],
    ["NEON_API_HOST", ["is NEON_API_HOST (the environment; the stack config has no neon:apiUrl)", "unset it"]],
    ["default", ["is the default (neither neon:apiUrl nor NEON_API_HOST is set)", "network, DNS"]],
  ])("names the URL and where it comes from: %s", (apiUrlFrom, says) => {
    const settings: Settings = { ...UP, apiUrl: "http://127.0.0.1:1/api/v2", apiUrlFrom };
    const hint = hintFor(refusedConnection, { op: "compute", projectId: PROJECT }, settings) ?? "";
    expect(hint).toContain("The API URL http://127.0.0.1:1/api/v2 is ");
    for (const text of says) expect(hint).toContain(text);
    expect(hint).not.toMatch(/project-scoped|404/);
  });

  it("a refresh says that it uses the neon:apiUrl saved by the last up", () => {
    const settings: Settings = { ...SAVED, apiUrl: "http://127.0.0.1:1/api/v2", apiUrlFrom: "neon:apiUrl" };
    expect(hintFor(refusedConnection, { op: "key-list" }, settings)).toContain("saved by the last `pulumi up`");
  });

  it("other network failures (the service may have seen the request) get no advice", () => {
    const reset = new NeonError({ kind: "network", code: "ECONNRESET", message: "reset" });
    expect(hintFor(reset, { op: "compute", projectId: PROJECT }, UP)).toBeUndefined();
  });
});

/** Issue 19: a URL without /api/v2 answers 404 "page not found", which got advice about projects and keys. */
describe("urlPathHint: a 404 from a URL whose path does not end in /api/v2", () => {
  const wrong: Settings = { ...UP, apiUrl: "http://127.0.0.1:4010", apiUrlFrom: "neon:apiUrl" };
  it.each<[string, Situation]>([
    ["compute", { op: "compute", projectId: PROJECT, branchId: BRANCH }],
    ["key create", { op: "key-create", orgId: ORG }],
    ["personal key list", { op: "key-list" }],
  ])("is about the URL's path, not projects or keys: %s", (_, situation) => {
    const hint = hintFor(refused(404), situation, wrong) ?? "";
    expect(hint).toContain("The API URL http://127.0.0.1:4010 does not end in /api/v2");
    expect(hint).toContain("The URL is neon:apiUrl (the stack config)");
    expect(hint).toContain("(probably http://127.0.0.1:4010/api/v2)");
    expect(hint).not.toMatch(/project-scoped|member|orgId/);
  });

  it("is silent for a URL that ends in /api/v2 (a trailing slash too)", () => {
    expect(urlPathHint(UP)).toBeUndefined();
    expect(urlPathHint({ ...UP, apiUrl: "http://127.0.0.1:4010/api/v2/" })).toBeUndefined();
    expect(urlPathHint({ ...UP, apiUrl: "http://127.0.0.1:4010/neon/api/v2" })).toBeUndefined();
  });

  it("keeps a path prefix in its suggestion", () => {
    expect(urlPathHint({ ...UP, apiUrl: "https://proxy.example/neon" })).toContain(
      "probably https://proxy.example/neon/api/v2",
    );
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

  // Issue 19: with a URL lacking /api/v2, every route answers 404 "page not found", and the provider's reads after it
  // (is the compute gone? does the project answer?) concluded things about projects and keys.
  it("puts a wrong URL path before what the provider concluded from a 404", async () => {
    configure({ get: (key) => (key === "neon:apiUrl" ? "http://127.0.0.1:4010" : undefined) });
    try {
      const page = new NeonError({ kind: "not_found", status: 404, message: "page not found" });
      const failing = withHints(
        () => ({ op: "compute", projectId: PROJECT }),
        async () => {
          throw new Error(`compute ep-1 was not found, and neither was its project ${PROJECT}`, { cause: page });
        },
      );
      const error = await failing().catch((e: Error) => e);
      expect(error.message).toMatch(
        /^HTTP 404: page not found\. The API URL http:\/\/127\.0\.0\.1:4010 does not end in/,
      );
      expect(error.message).not.toContain("neither was its project");
    } finally {
      configure(undefined);
    }
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
