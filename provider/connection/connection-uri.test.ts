import fc from "fast-check";
import { encodePart, formatConnectionUri } from "./connection-uri";

const HOST = "ep-cool-darkness-123456.us-east-2.aws.neon.tech";

/** What a URL parser reads back from a URI: role, password, host, database, query. */
function parsed(uri: string) {
  const url = new URL(uri);
  return {
    protocol: url.protocol,
    roleName: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    host: url.host,
    databaseName: decodeURIComponent(url.pathname.slice(1)),
    search: url.search,
  };
}

describe("formatConnectionUri", () => {
  it("builds Neon's form of a connection string", () => {
    expect(
      formatConnectionUri({ host: HOST, roleName: "neondb_owner", password: "AbC123dEf", databaseName: "neondb" }),
    ).toBe(`postgresql://neondb_owner:AbC123dEf@${HOST}/neondb?sslmode=require`);
  });

  it("percent-encodes role, password and database so any of them reads back as given", () => {
    const text = fc.string({ unit: "binary", minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(text, fc.string({ unit: "binary", maxLength: 40 }), text, (roleName, password, databaseName) => {
        const uri = formatConnectionUri({ host: HOST, roleName, password, databaseName });
        expect(parsed(uri)).toEqual({
          protocol: "postgresql:",
          roleName,
          password,
          host: HOST,
          databaseName,
          search: "?sslmode=require",
        });
      }),
      { seed: 20, numRuns: 300 },
    );
  });

  it("encodes the characters that end or split a URI's parts, and RFC 3986's sub-delimiters", () => {
    expect(encodePart("a:b@c/d?e#f%g h")).toBe("a%3Ab%40c%2Fd%3Fe%23f%25g%20h");
    expect(encodePart("!'()*")).toBe("%21%27%28%29%2A");
    expect(encodePart("é")).toBe("%C3%A9");
  });

  it("refuses what cannot make a URI, naming the part and never the password", () => {
    const password = "s3cr3t-password-value";
    const attempt = (parts: Partial<Parameters<typeof formatConnectionUri>[0]>) => () =>
      formatConnectionUri({ host: HOST, roleName: "app", password, databaseName: "app", ...parts });
    expect(attempt({ roleName: "" })).toThrow("connectionUri: roleName must not be empty");
    expect(attempt({ databaseName: "" })).toThrow("connectionUri: databaseName must not be empty");
    expect(attempt({ host: "" })).toThrow("connectionUri: the compute's host must be a host name");
    expect(attempt({ host: "evil.com/x?" })).toThrow(
      'the compute\'s host must be a host name (letters, digits, - and .), got "evil.com/x?"',
    );
    expect(attempt({ password: 42 as unknown as string })).toThrow(
      "connectionUri: password must be a string (a role with noLogin has none), got number",
    );
    for (const bad of [{ roleName: "" }, { host: "a b" }]) {
      try {
        attempt(bad)();
      } catch (error) {
        expect((error as Error).message).not.toContain(password);
      }
    }
  });
});
