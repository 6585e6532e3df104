/**
 * Roles against the emulator over HTTP: create (with its password), list, get, reveal and reset the password,
 * delete; names that need encoding in a path; every change under the project lock. And passwords are secrets: no
 * error and no log line of the client ever contains one, whatever the service echoes.
 */
import { inspect } from "util";
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { clientFor, rejection, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
let projectId: string;
let dev: string;

beforeAll(async () => {
  emu = await start();
  client = clientFor(emu);
  projectId = emu.projectId;
  dev = (await client.branches.list(projectId)).find((b) => b.name === "dev")!.id;
});
afterAll(() => emu.close());

const done = (ops: { status: string }[]) => ops.every((op) => ["finished", "skipped"].includes(op.status));

describe("roles", () => {
  let password: string;

  it("creates a role with its password, resolving once the operations are done", async () => {
    const created = await client.roles.create(projectId, dev, { name: "alex" });
    expect(created.role).toMatchObject({ name: "alex", branch_id: dev });
    expect(typeof created.role.password).toBe("string");
    password = created.role.password!;
    expect(password.length).toBeGreaterThan(0);
    expect(done(created.operations)).toBe(true);
    expect(seen(emu, "POST", `/branches/${dev}/roles`).map((r) => r.status)).toEqual([201]);
  });
  it("lists and gets it", async () => {
    expect((await client.roles.list(projectId, dev)).map((r) => r.name)).toContain("alex");
    expect(await client.roles.get(projectId, dev, "alex")).toMatchObject({ name: "alex", branch_id: dev });
  });
  it("reveals the password", async () => {
    expect(await client.roles.revealPassword(projectId, dev, "alex")).toBe(password);
  });
  it("resets the password: a new one, in force once the operations are done", async () => {
    const reset = await client.roles.resetPassword(projectId, dev, "alex");
    expect(reset.role.name).toBe("alex");
    expect(reset.role.password).toEqual(expect.any(String));
    expect(reset.role.password).not.toBe(password);
    expect(done(reset.operations)).toBe(true);
    expect(await client.roles.revealPassword(projectId, dev, "alex")).toBe(reset.role.password);
  });
  it("takes the whole request too, and a role that cannot log in", async () => {
    const { role } = await client.roles.create(projectId, dev, { role: { name: "reporting", no_login: true } });
    expect(role.name).toBe("reporting");
  });
  it("encodes a name with a space and a non-ASCII character as one path segment", async () => {
    const name = "app user é";
    const { role } = await client.roles.create(projectId, dev, { name });
    expect(role.name).toBe(name);
    expect(await client.roles.get(projectId, dev, name)).toMatchObject({ name });
    expect(typeof (await client.roles.revealPassword(projectId, dev, name))).toBe("string");
    expect((await client.roles.delete(projectId, dev, name)).role?.name).toBe(name);
    expect(seen(emu, "GET", `/roles/${encodeURIComponent(name)}`).map((r) => r.status)).toEqual([200]);
  });
  it("an unknown role is kind not_found, for get, reveal and reset", async () => {
    for (const call of [
      client.roles.get(projectId, dev, "nobody"),
      client.roles.revealPassword(projectId, dev, "nobody"),
      client.roles.resetPassword(projectId, dev, "nobody"),
    ]) {
      expect(await rejection(call)).toMatchObject({ kind: "not_found", status: 404 });
    }
  });
  it("a role of that name already there is refused (4xx), not ambiguous", async () => {
    const error = await rejection(client.roles.create(projectId, dev, { name: "alex" }));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
  });
  it("deletes, resolving once gone; deleting again resolves saying it was not there", async () => {
    const deleted = await client.roles.delete(projectId, dev, "alex");
    expect(deleted.role?.name).toBe("alex");
    expect(done(deleted.operations)).toBe(true);
    expect(await rejection(client.roles.get(projectId, dev, "alex"))).toMatchObject({ kind: "not_found" });
    await expect(client.roles.delete(projectId, dev, "alex")).resolves.toEqual({ operations: [] });
    const statuses = seen(emu, "DELETE", `/roles/alex`).map((r) => r.status);
    expect(statuses[0]).toBe(200);
    expect([204, 404]).toContain(statuses[1]);
  });
  it("parallel creates on several branches meet no 423", async () => {
    const branches = (await client.branches.list(projectId)).map((b) => b.id);
    const created = await Promise.all(
      branches.flatMap((b) => [0, 1].map((i) => client.roles.create(projectId, b, { name: `parallel_${i}` }))),
    );
    expect(created.every((c) => done(c.operations))).toBe(true);
    expect(emu.stats().byStatus["423"] ?? 0).toBe(0);
  });
});

describe("passwords never leak", () => {
  const lines: string[] = [];
  const errors: unknown[] = [];

  function dump(error: unknown): string {
    const e = error as Error & Record<string, unknown>;
    return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 10, showHidden: true })].join("\n");
  }

  it("no error and no log line contains a password, whatever the service echoes", async () => {
    const log = (line: string) => lines.push(line);
    const quiet = clientFor(emu, { log, retry: { maxAttempts: 1 } });
    const { role } = await quiet.roles.create(projectId, dev, { name: "secretive" });
    const base = `/branches/${dev}/roles/secretive`;
    const secrets = [role.password!];
    // an error body without a message, echoing the role: rendered as a snippet of the body
    emu.replies.rewriteNext({
      path: `${base}/reveal_password`,
      rewrite: (r) => ({ status: 500, body: { echo: r.body } }),
    });
    errors.push(await rejection(quiet.roles.revealPassword(projectId, dev, "secretive")));
    // a refusal whose message quotes the role as JSON and a connection URI
    emu.replies.rewriteNext({
      path: `${base}/reset_password`,
      rewrite: (r) => ({
        status: 409,
        body: {
          message: `conflict: ${JSON.stringify(r.body)} postgresql://secretive:${(r.body as { role: { password: string } }).role.password}@h/db`,
        },
      }),
    });
    errors.push(await rejection(quiet.roles.resetPassword(projectId, dev, "secretive")));
    secrets.push(await quiet.roles.revealPassword(projectId, dev, "secretive"));
    // a success whose shape is broken: ambiguous, naming the field, never its value
    emu.replies.rewriteNext({
      path: `${base}/reset_password`,
      rewrite: (r) => ({ status: 200, body: { ...(r.body as object), operations: "nope" } }),
    });
    errors.push(await rejection(quiet.roles.resetPassword(projectId, dev, "secretive")));
    secrets.push(await quiet.roles.revealPassword(projectId, dev, "secretive"));

    expect(errors.map((e) => (e as { kind: string }).kind)).toEqual(["server", "conflict", "ambiguous"]);
    expect((errors[0] as Error).message).toContain("[REDACTED]");
    expect(lines.length).toBeGreaterThan(5);
    const haystack = [...errors.map(dump), ...lines].join("\n");
    for (const secret of new Set(secrets)) expect(haystack.split(secret).length - 1).toBe(0);
  });
});
