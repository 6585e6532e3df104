import { AxiosError, AxiosHeaders } from "axios";
import { fromAxiosError, kindForStatus, NeonError, redact, renderMessage, snippet } from "./errors";

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
});
