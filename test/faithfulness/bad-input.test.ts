/**
 * Bad input never hurts the emulator (issue 2, point 10), checked with generated inputs: malformed JSON, wrong
 * types for every create/update field, out-of-range sizes and timeouts, bodies over the cap, unknown ids, odd
 * paths, wrong methods and bad paging parameters. Every case must answer a 4xx with the error body
 * `{code, message, request_id}` (naming the field for a validation error), never a 5xx or a dropped
 * connection, and leave the world (computes and keys, read back through the API) exactly as it was.
 */
import fc from "fast-check";
import { matchRoute } from "../openapi/contract";
import type { RawRequest, RawResponse } from "../openapi/recorder";
import * as gen from "./bad-input-arbitraries";
import { listEndpoints, listKeys, startWorld, type World } from "./harness";

/** Bodies over this size must be refused with 413 (the emulator's documented cap is 1 MiB). */
const BODY_CAP = 1024 * 1024;
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 250);

let world: World;
let projectId: string;
let primaryId: string;
let devBranch: string;
let before: { endpoints: unknown; keys: unknown };

async function snapshot(): Promise<{ endpoints: unknown; keys: unknown }> {
  return { endpoints: await listEndpoints(world), keys: await listKeys(world) };
}

beforeAll(async () => {
  world = await startWorld();
  projectId = world.emulator.projectId;
  const endpoints = await listEndpoints(world);
  primaryId = endpoints[0].id;
  const branches = await world.http.request({ method: "GET", path: `/projects/${projectId}/branches` });
  devBranch = (branches.body as { branches: { id: string; name: string }[] }).branches.find(
    (b) => b.name === "dev",
  )!.id;
  before = await snapshot();
});

afterEach(async () => {
  // The world after each property: nothing created, changed or revoked by any rejected request.
  expect(await snapshot()).toEqual(before);
});

afterAll(async () => {
  await world?.close();
});

/** The one assertion every bad request must pass; throws with the response, so a failing case is readable. */
function expectRejected(res: RawResponse, names?: string, statuses?: number[]): void {
  const fail = (why: string): never => {
    throw new Error(`${why}; got ${res.status} ${String(res.headers["content-type"])} ${res.text.slice(0, 300)}`);
  };
  if (statuses && !statuses.includes(res.status)) fail(`expected status ${statuses.join(" or ")}`);
  if (res.status < 400 || res.status >= 500) fail("expected a 4xx");
  if (!/^application\/json/.test(String(res.headers["content-type"]))) fail("expected a JSON content-type");
  const body = res.body as { code?: unknown; message?: unknown; request_id?: unknown } | undefined;
  if (typeof body !== "object" || body === null) fail("expected a JSON object body");
  const { code, message, request_id: requestId } = body as { code?: unknown; message?: unknown; request_id?: unknown };
  if (typeof code !== "string") fail("expected a string `code`");
  if (typeof message !== "string" || message === "") fail("expected a non-empty `message`");
  if (typeof requestId !== "string" || requestId === "") fail("expected a non-empty `request_id`");
  if (names && !(message as string).includes(names)) fail(`expected the message to name ${names}`);
  if (res.problems.length > 0) fail(`contract: ${res.problems.join("; ")}`);
}

const send = (req: RawRequest): Promise<RawResponse> => world.http.request(req);
const createPath = (): string => `/projects/${projectId}/endpoints`;
const primaryPath = (): string => `/projects/${projectId}/endpoints/${primaryId}`;
const validCreate = (): Record<string, unknown> => ({ branch_id: devBranch, type: "read_only" });

describe("request bodies", () => {
  it("malformed JSON is a 400 on every route that takes a body", async () => {
    const route = fc.constantFrom(
      { method: "POST", path: () => "/api_keys" },
      { method: "POST", path: createPath },
      { method: "PATCH", path: primaryPath },
      { method: "POST", path: () => `/projects/${projectId}/branches` },
    );
    await fc.assert(
      fc.asyncProperty(route, gen.malformedJson, async (r, raw) => {
        expectRejected(await send({ method: r.method, path: r.path(), raw }), undefined, [400]);
      }),
      { numRuns: RUNS },
    );
  });

  it("JSON that is not an object, or whose endpoint is not an object, is a 400", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), gen.nonObjectJson, async (wrap, json) => {
        const raw = wrap ? `{"endpoint": ${json}}` : json;
        expectRejected(await send({ method: "POST", path: createPath(), raw }), wrap ? "endpoint" : undefined, [400]);
        expectRejected(await send({ method: "PATCH", path: primaryPath(), raw }), wrap ? "endpoint" : undefined, [400]);
        expectRejected(await send({ method: "POST", path: "/api_keys", raw }), undefined, [400]);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  const badField = fc.oneof(gen.wrongTypedField, gen.badSettings, gen.badEnumValue);

  it("a wrong type or value in any create field is a 400 naming the field", async () => {
    await fc.assert(
      fc.asyncProperty(badField, async ({ field, value, names }) => {
        const endpoint = { ...validCreate(), [field]: value };
        expectRejected(await send({ method: "POST", path: createPath(), json: { endpoint } }), names, [400]);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("a wrong type or value in any update field is a 400 naming the field", async () => {
    const patchable = badField.filter(({ field }) => field !== "type" && field !== "region_id");
    await fc.assert(
      fc.asyncProperty(patchable, async ({ field, value, names }) => {
        const res = await send({ method: "PATCH", path: primaryPath(), json: { endpoint: { [field]: value } } });
        expectRejected(res, names, [400]);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("out-of-range sizes and autosuspend timeouts are a 400 naming the field, on create and update", async () => {
    const bad = fc.oneof(
      gen.badSizes.map((sizes) => ({ fields: sizes as Record<string, unknown>, names: "autoscaling_limit_" })),
      gen.badTimeout.map((t) => ({ fields: { suspend_timeout_seconds: t }, names: "suspend_timeout_seconds" })),
    );
    await fc.assert(
      fc.asyncProperty(bad, async ({ fields, names }) => {
        const created = await send({
          method: "POST",
          path: createPath(),
          json: { endpoint: { ...validCreate(), ...fields } },
        });
        expectRejected(created, names, [400]);
        expectRejected(await send({ method: "PATCH", path: primaryPath(), json: { endpoint: fields } }), names, [400]);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("bad key names are a 400 naming key_name", async () => {
    const badName = fc.oneof(gen.wrongTypeFor("string"), fc.constantFrom("", "k".repeat(65)));
    await fc.assert(
      fc.asyncProperty(fc.option(badName, { nil: undefined }), async (keyName) => {
        const json = keyName === undefined ? { name: "x" } : { key_name: keyName };
        expectRejected(await send({ method: "POST", path: "/api_keys", json }), "key_name", [400]);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it("bodies over the cap are refused with 413, not read into memory, and the connection is answered", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: BODY_CAP + 1, max: 6 * BODY_CAP }), fc.boolean(), async (size, isKey) => {
        const pad = "a".repeat(size);
        const json = isKey ? { key_name: "huge", pad } : { endpoint: { ...validCreate(), name: "huge", pad } };
        const path = isKey ? "/api_keys" : createPath();
        expectRejected(await send({ method: "POST", path, json }), undefined, [413]);
      }),
      { numRuns: 8 },
    );
  });
});

describe("ids, paths, methods and query parameters", () => {
  /** Routes with an id to replace by an unknown one, and the methods they accept. */
  const idRoutes: { template: (id: string) => string; methods: string[]; allow204?: boolean }[] = [
    { template: (id) => `/projects/${id}/endpoints`, methods: ["GET", "POST"] },
    { template: (id) => `/projects/${projectId}/endpoints/${id}`, methods: ["GET", "PATCH", "DELETE"], allow204: true },
    { template: (id) => `/projects/${id}/endpoints/${primaryId}`, methods: ["GET", "PATCH", "DELETE"] },
    { template: (id) => `/projects/${projectId}/endpoints/${id}/restart`, methods: ["POST"] },
    { template: (id) => `/projects/${projectId}/endpoints/${id}/start`, methods: ["POST"] },
    { template: (id) => `/projects/${projectId}/endpoints/${id}/suspend`, methods: ["POST"] },
    { template: (id) => `/projects/${projectId}/branches/${id}/endpoints`, methods: ["GET"] },
    { template: (id) => `/projects/${id}/branches`, methods: ["GET", "POST"] },
    { template: (id) => `/projects/${id}/operations`, methods: ["GET"] },
    { template: (id) => `/projects/${projectId}/operations/${id}`, methods: ["GET"] },
    { template: (id) => `/api_keys/${id}`, methods: ["DELETE"] },
  ];

  it("unknown ids are a 4xx (DELETE of an absent compute may be 204, as the real service answers)", async () => {
    const known = new Set([projectId, primaryId, devBranch]);
    const keyIds = ((await listKeys(world)) as { id: number }[]).map((k) => String(k.id));
    await fc.assert(
      fc.asyncProperty(fc.nat(idRoutes.length - 1), fc.nat(2), gen.unknownId, async (r, m, id) => {
        fc.pre(!known.has(id) && !keyIds.includes(id.replace(/^0+(?=\d)/, "")));
        fc.pre(!/^(\.|%2e){1,2}$/i.test(id)); // a dot segment is a path, not an id: see the odd-path property
        const route = idRoutes[r];
        const method = route.methods[m % route.methods.length];
        const json = method === "PATCH" || method === "POST" ? { endpoint: validCreate() } : undefined;
        const res = await send({ method, path: route.template(id), json });
        if (route.allow204 && method === "DELETE" && res.status === 204) return;
        expectRejected(res);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  /** Real routes under lenient normalization (dot segments, repeated or trailing slashes, encoded slashes). */
  function leniently(path: string): string | undefined {
    const decoded = path.replace(/%2f/gi, "/");
    const resolved = new URL(`http://x/api/v2${decoded}`).pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
    if (!resolved.startsWith("/api/v2/")) return undefined;
    const rest = resolved.slice("/api/v2".length);
    return matchRoute(rest) ?? (/^\/projects\/(shared|[^/]+\/branches)$/.test(rest) ? rest : undefined);
  }

  it("odd paths (dot segments, encoded characters, very long) are a 4xx error body", async () => {
    await fc.assert(
      fc.asyncProperty(gen.oddPath, fc.constantFrom("GET", "POST", "DELETE"), async (path, method) => {
        fc.pre(leniently(path) === undefined);
        expectRejected(await send({ method, path }));
      }),
      { numRuns: RUNS * 2 },
    );
  });

  // Guards the gap below the router: Node's HTTP parser answers these itself (431 / 400, no body, connection
  // closed) unless the server handles `clientError`, so a client gets no JSON error and no request id.
  it.each([
    [
      "a request line over Node's 16 kB header limit",
      { method: "GET", path: `/projects/${"a".repeat(20_000)}/endpoints` },
    ],
    ["an unknown method token", { method: "FOO", path: "/projects" }],
  ])("%s still gets a 4xx JSON error body", async (_label, req) => {
    expectRejected(await send(req));
  });

  it("a method a route does not accept is a 405 (on real ids, changing nothing)", async () => {
    const routes = [
      { path: () => "/api_keys", allowed: ["GET", "POST"] },
      { path: () => `/api_keys/${(before.keys as { id: number }[])[0].id}`, allowed: ["DELETE"] },
      { path: () => "/projects", allowed: ["GET", "POST"] },
      // PATCH and DELETE of /projects/shared are /projects/{project_id}'s, for a project id "shared" (none: 404).
      { path: () => "/projects/shared", allowed: ["GET", "PATCH", "DELETE"] },
      { path: () => `/projects/${projectId}`, allowed: ["GET", "PATCH", "DELETE"] },
      { path: createPath, allowed: ["GET", "POST"] },
      { path: primaryPath, allowed: ["GET", "PATCH", "DELETE"] },
      { path: () => `${primaryPath()}/restart`, allowed: ["POST"] },
      { path: () => `${primaryPath()}/start`, allowed: ["POST"] },
      { path: () => `${primaryPath()}/suspend`, allowed: ["POST"] },
      { path: () => `/projects/${projectId}/operations`, allowed: ["GET"] },
      { path: () => `/projects/${projectId}/branches/${devBranch}/endpoints`, allowed: ["GET"] },
    ];
    const cases = fc
      .tuple(fc.constantFrom(...routes), fc.constantFrom(...gen.METHODS))
      .filter(([route, method]) => !route.allowed.includes(method));
    await fc.assert(
      fc.asyncProperty(cases, fc.boolean(), async ([route, method], withBody) => {
        const json = withBody ? { endpoint: validCreate(), key_name: "wrong-method" } : undefined;
        expectRejected(await send({ method, path: route.path(), json }), undefined, [405]);
      }),
      { numRuns: RUNS },
    );
  });

  it("bad limit and cursor values are a 400", async () => {
    const lists = fc.constantFrom(
      { path: () => "/projects", max: 400 },
      { path: () => "/projects/shared", max: 400 },
      { path: () => `/projects/${projectId}/operations`, max: 1000 },
    );
    const param = fc.oneof(
      fc
        .tuple(lists, fc.constant("limit"))
        .chain(([l]) => gen.badLimit(l.max).map((v) => ({ l, q: `limit=${encodeURIComponent(v)}`, names: "limit" }))),
      fc.tuple(lists, gen.garbageCursor).map(([l, c]) => ({ l, q: `cursor=${c}`, names: "cursor" })),
    );
    await fc.assert(
      fc.asyncProperty(param, async ({ l, q, names }) => {
        expectRejected(await send({ method: "GET", path: `${l.path()}?${q}` }), names, [400]);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});

describe("after all of it", () => {
  it("served no 5xx, still answers, and every response matched the contract's error shape", async () => {
    const byStatus = world.emulator.stats().byStatus;
    expect(Object.keys(byStatus).filter((s) => s.startsWith("5"))).toEqual([]);
    expect((await send({ method: "GET", path: "/projects" })).status).toBe(200);
    world.recorder.assertClean();
  });
});
