/**
 * Paging walks every page (guards a getProjects that silently stops at the first 10), and the client-side
 * limiter keeps a burst of requests under the service's rate limit.
 */
import { clientFor, seen, start } from "./testing.test.helpers";

describe("project paging", () => {
  const projects = ["alpha", "beta", "gamma", "delta", "epsilon"].map((name) => ({ name }));

  it("walks cursor pages until a short page, with the number of requests asserted", async () => {
    const emu = await start({ fixture: { accounts: [{ projects }] } });
    try {
      const client = clientFor(emu);
      const names: string[] = [];
      for await (const project of client.projects.iterate({ limit: 2 })) names.push(project.name);
      expect(names.sort()).toEqual(projects.map((p) => p.name).sort());
      expect(seen(emu, "GET", "/projects")).toHaveLength(3);

      const all = await client.projects.listAll();
      expect(all).toHaveLength(5);
      expect(seen(emu, "GET", "/projects")).toHaveLength(4); // one page of up to 400

      const found = await client.projects.listAll({ search: "gam" });
      expect(found.map((p) => p.name)).toEqual(["gamma"]);
    } finally {
      await emu.close();
    }
  });

  it("an exact multiple of the limit ends on the empty page", async () => {
    const emu = await start({ fixture: { accounts: [{ projects: projects.slice(0, 4) }] } });
    try {
      const client = clientFor(emu);
      expect(await client.projects.listAll({ limit: 2 })).toHaveLength(4);
      expect(seen(emu, "GET", "/projects").length).toBeLessThanOrEqual(3);
    } finally {
      await emu.close();
    }
  });
});

describe("client-side rate limiting", () => {
  it("keeps a burst of parallel requests under the service's limit: zero 429", async () => {
    const emu = await start({ rateLimit: { perMinute: 10_000, burstPerSecondPerRoute: 5 } });
    try {
      const client = clientFor(emu, { rateLimit: { perSecondPerRoute: 4 } });
      await Promise.all(Array.from({ length: 12 }, () => client.endpoints.list(emu.projectId)));
      expect(emu.stats().byStatus["429"] ?? 0).toBe(0); // without the limiter, 7 of the 12 meet the 5-a-second burst
    } finally {
      await emu.close();
    }
  });

  it("by default, lets through at once what the service accepts, and stays under its real limits", async () => {
    const emu = await start({ rateLimit: {} }); // the service's own limits: 700/min per account, 40/s per route
    try {
      const client = clientFor(emu, { rateLimit: undefined }); // the default limiter
      await Promise.all(Array.from({ length: 70 }, () => client.endpoints.list(emu.projectId)));
      expect(emu.stats().byStatus["429"] ?? 0).toBe(0); // how fast it lets them through: bench/ (rate limiter)
    } finally {
      await emu.close();
    }
  });
});
