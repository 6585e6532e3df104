import { deletesRunning, trackDelete } from "./deletes-in-flight";

const appdb = { kind: "database", projectId: "p", branchId: "br-a", name: "appdb" } as const;

describe("deletes in flight (a role's refused delete waits for the database's: issue 23, item 19)", () => {
  it("a delete is seen from its start until it settles, resolved or rejected, and only under its own address", async () => {
    let finish!: () => void;
    const running = trackDelete(appdb, () => new Promise<void>((resolve) => (finish = resolve)));
    expect(deletesRunning([appdb])).toHaveLength(1);
    expect(
      deletesRunning([
        { ...appdb, branchId: "br-b" },
        { ...appdb, kind: "role" },
      ]),
    ).toEqual([]);
    finish();
    await running;
    expect(deletesRunning([appdb])).toEqual([]);
    await expect(trackDelete(appdb, () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(deletesRunning([appdb])).toEqual([]);
  });
});
