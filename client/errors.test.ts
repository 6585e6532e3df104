import { AxiosError, AxiosHeaders } from "axios";
import { displayUrl, fromAxiosError, isUnreachable } from "./axios-errors";
import { kindForStatus, NeonError, redact, renderMessage, snippet } from "./errors";

const KEY = "k3y-abcdefghijklmnopqrstuvwxyz0123456789";
const ctx = {
  method: "POST",
  path: "/projects/p/endpoints",
  requestId: "req-1",
  scrub: (t: string) => redact(t, [KEY]),
};

function axiosError(status: number | undefined, data: unknown, code?: string, headers: Record<string, string> = {}) {
  const config = { headers: new AxiosHeaders({ Authorization: `Bearer ${KEY}` }), url: "/projects/p/endpoints" };
  const response =
    status === undefined
      ? undefined
      : { status, statusText: "", data, headers: new AxiosHeaders(headers), config, request: {} };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return new AxiosError(`failed with ${KEY}`, code, config as any, {}, response as any);
}

describe("NeonError rendering", () => {
  it("renders HTTP status, the API's message, method, path and request id", () => {
    const error = new NeonError({
      kind: "locked",
      status: 423,
      message: "project already has running conflicting operations",
      method: "POST",
      path: "/projects/p/endpoints",
      requestId: "abc",
    });
    expect(error.message).toBe(
      "HTTP 423: project already has running conflicting operations (POST /projects/p/endpoints, request ID: abc)",
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("NeonError");
  });
  it("renders without a status for errors that have none", () => {
    expect(renderMessage({ kind: "config", message: "No key" })).toBe("No key");
  });
  it("maps statuses to kinds", () => {
    expect([401, 403, 404, 409, 400, 422, 423, 429, 500, 503].map((s) => kindForStatus(s))).toEqual([
      "auth",
      "auth",
      "not_found",
      "conflict",
      "validation",
      "validation",
      "locked",
      "rate_limit",
      "server",
      "server",
    ]);
  });
  it("maps a 422 `branch not ready yet` to not_ready, other 422s to validation", () => {
    expect(kindForStatus(422, "branch not ready yet")).toBe("not_ready");
    expect(kindForStatus(422, "Branch not ready yet, retry later")).toBe("not_ready");
    expect(kindForStatus(422, "endpoint ep-x is idle: restart works only on an active compute")).toBe("validation");
    expect(kindForStatus(400, "branch not ready yet")).toBe("validation");
  });
  it("with() keeps the facts and re-renders", () => {
    const error = new NeonError({ kind: "server", status: 500, message: "boom", method: "GET", path: "/x" });
    const changed = error.with({ resourceId: "ep-1" });
    expect(changed).toMatchObject({ kind: "server", status: 500, method: "GET", resourceId: "ep-1" });
    expect(changed.message).toContain("id: ep-1");
  });
});

describe("fromAxiosError: the boundary keeps facts, drops credentials", () => {
  it("uses the API's JSON error body", () => {
    const error = fromAxiosError(
      axiosError(409, { code: "", message: "read_write endpoint already exists", request_id: "srv-1" }),
      ctx,
    );
    expect(error).toMatchObject({ kind: "conflict", status: 409, requestId: "srv-1", method: "POST" });
    expect(error.message).toBe(
      "HTTP 409: read_write endpoint already exists (POST /projects/p/endpoints, request ID: srv-1)",
    );
  });
  it("turns a non-JSON body into a bounded one-line snippet", () => {
    const html = `<html>\n<body>${"x".repeat(5000)}</body></html>`;
    const error = fromAxiosError(axiosError(502, html), ctx);
    expect(error.kind).toBe("server");
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain("unexpected response body: <html> <body>xxx");
    expect(error.message).not.toContain("\n");
  });
  it("keeps Retry-After for the retry policy", () => {
    const error = fromAxiosError(
      axiosError(429, { message: "slow down", code: "" }, undefined, { "retry-after": "2" }),
      ctx,
    );
    expect(error.retryAfter).toBe("2");
  });
  it("maps a network error with its code", () => {
    const error = fromAxiosError(axiosError(undefined, undefined, "ECONNRESET"), ctx);
    expect(error).toMatchObject({ kind: "network", code: "ECONNRESET" });
  });
  it("keeps the request ID of a network failure the service may have seen (a reset, a timeout)", () => {
    expect(fromAxiosError(axiosError(undefined, undefined, "ECONNRESET"), ctx).message).toContain("request ID: req-1");
  });
  // Issue 19: with neon:apiUrl pointing at nothing, the error cited a request ID no server ever saw, and not the URL.
  it.each([
    ["ECONNREFUSED", "the connection was refused: nothing listens at 127.0.0.1:1 (ECONNREFUSED)"],
    ["ENOTFOUND", "the host name does not resolve: 127.0.0.1:1 (ENOTFOUND)"],
  ])("names the URL and why nothing answers there (%s), and no request ID", (code, why) => {
    const at = { ...ctx, baseUrl: "http://user:pw@127.0.0.1:1/api/v2/?x=1" };
    const error = fromAxiosError(axiosError(undefined, undefined, code), at);
    expect(error).toMatchObject({ kind: "network", code, method: "POST", path: "/projects/p/endpoints" });
    expect(error.requestId).toBeUndefined();
    expect(error.message).toBe(
      `cannot reach the Neon API at http://127.0.0.1:1/api/v2: ${why} (POST /projects/p/endpoints)`,
    );
    expect(isUnreachable(error)).toBe(true);
  });
  it("reads the code of an unreachable host from the error's cause too", () => {
    const thrown = axiosError(undefined, undefined, undefined);
    thrown.cause = Object.assign(new Error("getaddrinfo"), { code: "ENOTFOUND" });
    const error = fromAxiosError(thrown, { ...ctx, baseUrl: "https://nope.invalid/api/v2" });
    expect(error.message).toMatch(
      /^cannot reach the Neon API at https:\/\/nope.invalid\/api\/v2: the host name does not resolve: nope.invalid/,
    );
  });
  it("isUnreachable: only refused connections and unknown hosts", () => {
    expect(isUnreachable(new NeonError({ kind: "network", code: "ECONNRESET", message: "r" }))).toBe(false);
    expect(isUnreachable(new NeonError({ kind: "server", status: 503, message: "x" }))).toBe(false);
    expect(isUnreachable(undefined)).toBe(false);
    expect(displayUrl("not a url")).toBe("not a url");
  });
  it("maps a cancellation", () => {
    expect(fromAxiosError(axiosError(undefined, undefined, "ERR_CANCELED"), ctx).kind).toBe("cancelled");
  });
  it("never keeps the key or the Authorization header anywhere in the error", () => {
    for (const source of [
      axiosError(401, { message: `bad key ${KEY}`, code: "" }),
      axiosError(500, `oops Bearer ${KEY}`),
      axiosError(undefined, undefined, "ECONNRESET"),
      new Error(`plain ${KEY}`),
    ]) {
      const error = fromAxiosError(source, ctx);
      const dump = JSON.stringify(error) + error.message + String(error.stack) + Object.keys(error).join();
      expect(dump).not.toContain(KEY);
      expect(dump).not.toMatch(/authorization/i);
      expect(Object.values(error).some((v) => typeof v === "object" && v !== null && "config" in v)).toBe(false);
    }
  });
});

describe("snippet and redact", () => {
  it("bounds and flattens", () => {
    expect(snippet("a\n\n b")).toBe("a b");
    expect(snippet("y".repeat(300))).toHaveLength(201);
    expect(snippet({ a: 1 })).toBe('{"a":1}');
    expect(snippet(undefined)).toBe("");
  });
  it("removes secrets and bearer tokens", () => {
    expect(redact(`x ${KEY} y`, [KEY])).toBe("x [REDACTED] y");
    expect(redact("Authorization: Bearer abc.def", [])).toBe("Authorization: Bearer [REDACTED]");
  });
  it.each([
    ['{"role":{"name":"a","password":"Onf1AjayKwe0"}}', '{"role":{"name":"a","password":"[REDACTED]"}}'],
    ['{"password" : "with \\"quote\\" inside"}', '{"password" : "[REDACTED]"}'],
    ['unexpected response body: {"password":"Onf1Aj…', 'unexpected response body: {"password":"[REDACTED]'],
    ['"{\\"password\\":\\"Onf1AjayKwe0\\"}"', '"{\\"password\\":\\"[REDACTED]"'],
    [
      "postgresql://alex:AbC123@ep-x.aws.neon.tech/neondb?sslmode=require",
      "postgresql://alex:[REDACTED]@ep-x.aws.neon.tech/neondb?sslmode=require",
    ],
    ["host=h password=AbC123 dbname=d", "host=h password=[REDACTED] dbname=d"],
  ])("removes a password by its shape: %s", (text, expected) => {
    expect(redact(text, [])).toBe(expected);
    expect(redact(text, [])).not.toMatch(/Onf1Aj|AbC123|quote/);
  });
  it("leaves what merely names a password alone", () => {
    const text = "GET /projects/p/branches/b/roles/alex/reveal_password -> 412: storing passwords is disabled";
    expect(redact(text, [])).toBe(text);
  });
});
