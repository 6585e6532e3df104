import { accountHash, sharedBucket, TokenBucket } from "./rate-limit";

describe("TokenBucket", () => {
  it("lets a burst through, then spaces requests at the sustained rate", () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0]);
    expect(bucket.reserve()).toBe(100);
    expect(bucket.reserve()).toBe(200);
    now = 1000;
    expect(bucket.reserve()).toBe(0);
  });
  it("take() waits for its token", async () => {
    const bucket = new TokenBucket(50, 1);
    const started = Date.now();
    await bucket.take();
    await bucket.take();
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });
});

describe("sharedBucket", () => {
  it("is shared by every client of one account, and never keyed by the key itself", () => {
    const a = sharedBucket("http://x", "secret-key-1", undefined);
    expect(sharedBucket("http://x", "secret-key-1", {})).toBe(a);
    expect(sharedBucket("http://x", "secret-key-2", undefined)).not.toBe(a);
    expect(accountHash("http://x", "secret-key-1")).not.toContain("secret");
  });
  it("can be switched off", () => {
    expect(sharedBucket("http://x", "k", false)).toBeUndefined();
  });
});
