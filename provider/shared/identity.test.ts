import { isOurs, recordedIn } from "./identity";

const role = { name: "app_user", created_at: "2026-01-01T10:00:00Z" };
const database = { ...role, id: 7 };

describe("isOurs (identity before write)", () => {
  it("compares the recorded id and creation time; the same instant written with milliseconds is the same", () => {
    expect(isOurs(database, { id: "7", createdAt: "2026-01-01T10:00:00.000Z" })).toBe(true);
    expect(isOurs(database, { id: "8", createdAt: "2026-01-01T10:00:00Z" })).toBe(false);
    expect(isOurs(role, { createdAt: "2026-01-01T10:00:01Z" })).toBe(false);
  });

  it("a state that recorded no creation time (older, or kept after a failed create) goes by name and id alone", () => {
    expect(recordedIn({ name: "app_user" })).toEqual({});
    expect(isOurs(role, recordedIn({ name: "app_user" }))).toBe(true);
    expect(isOurs(database, recordedIn({ name: "app_user" }, "7"))).toBe(true);
    expect(isOurs(database, recordedIn({ createdAt: role.created_at }, "9"))).toBe(false);
  });
});
