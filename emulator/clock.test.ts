import { createClock } from "./clock";

describe("clock", () => {
  it("a manual clock moves only by advance()", () => {
    const c = createClock({ manual: true, startAt: 1000 });
    expect(c.now()).toBe(1000);
    c.advance(7 * 24 * 3600 * 1000);
    expect(c.now()).toBe(1000 + 7 * 24 * 3600 * 1000);
    expect(() => c.advance(-1)).toThrow(RangeError);
  });

  it("a real clock runs timeScale service seconds per real second and refuses advance()", () => {
    let wall = 0;
    const c = createClock({ timeScale: 60, startAt: 5000, wallNow: () => wall });
    wall = 1000;
    expect(c.now()).toBe(5000 + 60_000);
    expect(() => c.advance(1)).toThrow(/manualClock/);
    expect(() => createClock({ timeScale: 0 })).toThrow(RangeError);
  });
});
