/**
 * Generators of bad input for the property-based suite. Each produces input the real service rejects, so that
 * "4xx, error body, world unchanged" is the only right answer; the field a validation message must name is
 * carried along. Ambiguous inputs (JSON `null` for an optional field, unknown provisioner strings) are left out.
 */
import fc from "fast-check";

/** Documented compute sizes (api.md). */
export const SIZES = [
  0.25,
  0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
];

type Kind = "string" | "number" | "integer" | "boolean" | "object";

/**
 * The create/update fields of a compute and the JSON type each takes. Not `pooler_enabled` / `pooler_mode`: their
 * removal was scheduled for 2026-06-20 (api.md), and the emulator by default ignores them like any unknown field.
 */
export const ENDPOINT_FIELDS: Record<string, Kind> = {
  branch_id: "string",
  region_id: "string",
  type: "string",
  name: "string",
  provisioner: "string",
  autoscaling_limit_min_cu: "number",
  autoscaling_limit_max_cu: "number",
  suspend_timeout_seconds: "integer",
  disabled: "boolean",
  passwordless_access: "boolean",
  settings: "object",
};

const anyString = fc.string({ maxLength: 20 });
const anyNumber = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const anyArray = fc.array(fc.oneof(fc.integer(), anyString, fc.boolean()), { maxLength: 3 });
const anyObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.integer(), anyString), {
  maxKeys: 3,
});

/** A JSON value whose type is not `kind` (and not null). */
export function wrongTypeFor(kind: Kind): fc.Arbitrary<unknown> {
  const choices: fc.Arbitrary<unknown>[] = [anyArray];
  if (kind !== "string") choices.push(anyString);
  if (kind !== "number" && kind !== "integer") choices.push(anyNumber);
  if (kind !== "boolean") choices.push(fc.boolean());
  if (kind !== "object") choices.push(anyObject);
  return fc.oneof(...choices);
}

/** `{field, value}`: one field of the endpoint object with a value of the wrong JSON type. */
export const wrongTypedField = fc
  .constantFrom(...Object.keys(ENDPOINT_FIELDS))
  .chain((field) => wrongTypeFor(ENDPOINT_FIELDS[field]).map((value) => ({ field, value, names: field })));

/** Settings whose pg_settings is not a string→string map. */
export const badSettings = fc
  .oneof(
    wrongTypeFor("object").map((pg) => ({ pg_settings: pg })),
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 10 }), wrongTypeFor("string"))
      .map(([k, v]) => ({ pg_settings: { [k]: v } })),
  )
  .map((value) => ({ field: "settings", value, names: "pg_settings" }));

/** Strings that are not among the allowed values of an enum-like field. */
export const badEnumValue = fc.oneof(
  anyString
    .filter((s) => s !== "read_write" && s !== "read_only")
    .map((value) => ({ field: "type", value, names: "type" })),
  fc.constantFrom("", "x".repeat(65), "y".repeat(300)).map((value) => ({ field: "name", value, names: "name" })),
);

const invalidSize = fc.oneof(
  fc.constantFrom(0, -1, 0.1, 0.3, 0.75, 1.5, 16.5, 17, 19, 57, 58, 64, 1e9, -0.25),
  fc.double({ min: -1000, max: 1000, noNaN: true }).filter((v) => !SIZES.includes(v)),
);
const small = fc.constantFrom(...SIZES.filter((s) => s <= 16));
const large = fc.constantFrom(...SIZES.filter((s) => s > 16));

/** Size combinations the service refuses: undocumented sizes, min > max, a span over 8, autoscaling above 16. */
export const badSizes: fc.Arbitrary<{ autoscaling_limit_min_cu: number; autoscaling_limit_max_cu: number }> = fc
  .oneof(
    fc.tuple(invalidSize, fc.constantFrom(...SIZES)),
    fc.tuple(fc.constantFrom(...SIZES), invalidSize),
    fc.tuple(fc.constantFrom(...SIZES), fc.constantFrom(...SIZES)).filter(([a, b]) => a > b),
    fc.tuple(small, small).filter(([a, b]) => b - a > 8),
    fc.tuple(fc.constantFrom(...SIZES), large).filter(([a, b]) => a !== b),
  )
  .map(([min, max]) => ({ autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max }));

/** Autosuspend values outside -1, 0, 60..604800 (or not integers). */
export const badTimeout = fc.oneof(
  fc.integer({ min: -1_000_000, max: -2 }),
  fc.integer({ min: 1, max: 59 }),
  fc.integer({ min: 604_801, max: 2_000_000_000 }),
  fc.double({ min: 60.01, max: 604_799, noNaN: true }).filter((v) => !Number.isInteger(v)),
);

/** Text that is not JSON at all: random strings that do not parse, and truncated objects. */
export const malformedJson = fc.oneof(
  fc.string({ minLength: 1, maxLength: 200 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
  fc
    .jsonValue()
    .map((v) => JSON.stringify({ endpoint: v }))
    .map((s) => s.slice(0, Math.max(1, s.length - 1))),
  fc.constantFrom("{", "{}}", "{'key_name': 'x'}", '{"endpoint": {"branch_id": "br-x",}}', "\u0000", "[1,2", "nul"),
);

/** JSON that parses but is not an object body (arrays, scalars, null). */
export const nonObjectJson = fc
  .oneof(
    fc.array(fc.jsonValue(), { maxLength: 3 }),
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  )
  .map((v) => JSON.stringify(v));

/** Ids that match the documented pattern (but exist nowhere) and arbitrary, percent-encoded junk. */
export const unknownId = fc.oneof(
  fc.stringMatching(/^[a-z0-9-]{1,60}$/),
  fc.string({ minLength: 1, maxLength: 80 }).map(encodeURIComponent),
  fc.constantFrom("%2e%2e", "%2F", "%00", "-", "ep-", "br-", "0", "-1", "99999999999999999999", "1e3"),
);

const oddSegment = fc.oneof(
  fc.constantFrom("..", ".", "", "%2e%2e", "%2F", "%00", "%ZZ", "%", "%c0%af", "%E2%82", ";", "~", "%20", "a%2Fb"),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
  fc.constantFrom("projects", "endpoints", "api_keys", "operations", "branches", "shared", "restart"),
);

/** Odd paths: dot segments, encoded and invalid escapes, empty segments, and very long ones (up to 12 kB). */
export const oddPath = fc.oneof(
  fc.array(oddSegment, { minLength: 1, maxLength: 8 }).map((segments) => `/${segments.join("/")}`),
  fc.integer({ min: 1_000, max: 12_000 }).map((n) => `/projects/${"a".repeat(n)}/endpoints`),
  fc.integer({ min: 100, max: 2_000 }).map((n) => `/${"../".repeat(n)}etc/passwd`),
  fc.integer({ min: 2_000, max: 12_000 }).map((n) => `/projects?search=${"%41".repeat(n / 3)}`),
);

/** Query values (not yet URL-encoded) that are not a limit in range: 0, over the max, negative, non-numeric, empty. */
export function badLimit(max: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom("0", String(max + 1), "-1", "abc", "", "1.5", "1e2", " 5", "0x10", "10abc", "NaN", "Infinity"),
    fc.integer({ min: max + 1, max: 2_000_000_000 }).map(String),
    fc.integer({ min: -1_000_000, max: 0 }).map(String),
    fc.string({ minLength: 1, maxLength: 10 }).filter((s) => !/^\d+$/.test(s)),
  );
}

/**
 * Opaque-cursor garbage: what no previous page ever returned. Plain digit strings are left out: a position
 * number that was never handed out is indistinguishable from one that was (the page after it is just empty).
 */
export const garbageCursor = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
    fc.base64String({ minLength: 4, maxLength: 40 }).map(encodeURIComponent),
    fc.constantFrom("%00", "zzzz", "-1", "1.5", "eyJ4IjoxfQ%3D%3D", "2022-12-07T00%3A45%3A05.262011Z"),
  )
  .filter((c) => !/^\d+$/.test(c));

/** Every method the API knows; each route accepts some of them. */
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
