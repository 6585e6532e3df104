/**
 * An independent oracle of valid Compute and ApiKey inputs, written from api.md (not from provider/), and
 * fast-check generators of inputs that are valid or invalid in known properties.
 *
 * Each generated case carries what the oracle says: the properties that are invalid on their own, and whether
 * the size pair is refused. Where api.md is silent the generators stay away (branch ids of 61+ characters).
 */
import fc from "fast-check";

/** api.md: 0.25, 0.5, every integer 1..16, even integers 18..56. */
export const SIZES = [
  0.25,
  0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
];

/** api.md: autoscaling only within 0.25..16 and max − min ≤ 8; sizes above 16 are fixed; min ≤ max. */
export function sizePairValid(min: number, max: number): boolean {
  if (min > max) return false;
  if (min === max) return true;
  return max <= 16 && max - min <= 8;
}

export interface Case {
  inputs: Record<string, unknown>;
  /** Properties invalid on their own. */
  invalid: string[];
  /** Both sizes valid on their own but not together, or only one of them set. */
  badPair: boolean;
  /**
   * A compute above 16 CU (its minimum) with a suspend delay other than -1: api.md (Sizes) says such computes never
   * scale to zero, so the delay contradicts the sizes and suspendTimeoutSeconds must be refused. Whether the service
   * refuses it or overrides it is not documented: the emulator cross-check stays away from these cases.
   */
  alwaysActive?: boolean;
}

type Field = [value: unknown, valid: boolean];
const valid = (a: fc.Arbitrary<unknown>): fc.Arbitrary<Field> => a.map((v) => [v, true] as Field);
const invalid = (a: fc.Arbitrary<unknown>): fc.Arbitrary<Field> => a.map((v) => [v, false] as Field);
const either = (ok: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) => fc.oneof(valid(ok), invalid(bad));

const notString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(7.5),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.constant({ a: 1 }),
);
const notBoolean = fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant("true"), fc.constant([true]));
const notSize = fc.oneof(
  fc.double({ min: -100, max: 100, noNaN: true }).filter((v) => !SIZES.includes(v)),
  fc.constantFrom(0, 0.3, 17, 19, 58, 60, -1),
  fc.constantFrom("1", "0.25", true),
);
const suspendValid = fc.oneof(fc.constantFrom(-1, 0, 60, 604800), fc.integer({ min: 60, max: 604800 }));
const suspendInvalid = fc.oneof(
  fc.integer({ min: -1000, max: 59 }).filter((v) => v !== -1 && v !== 0),
  fc.integer({ min: 604801, max: 10_000_000 }),
  fc.constantFrom(60.5, 300.1, "300", true),
);
const slug = (min: number, max: number) => fc.stringMatching(new RegExp(`^[a-z0-9-]{${min},${max}}$`));

/** Field generators: [property, valid-or-invalid value]. */
const COMPUTE_FIELDS: Record<string, fc.Arbitrary<Field>> = {
  type: either(
    fc.constantFrom("read_write", "read_only"),
    fc.oneof(fc.constantFrom("primary", "READ_WRITE", "read-only", ""), notString),
  ),
  autoscalingLimitMinCu: either(fc.constantFrom(...SIZES), notSize),
  autoscalingLimitMaxCu: either(fc.constantFrom(...SIZES), notSize),
  suspendTimeoutSeconds: either(suspendValid, suspendInvalid),
  pgSettings: either(
    fc.dictionary(
      fc.stringMatching(/^[a-z][a-z_]{0,11}$/).filter((k) => !(k in {})),
      fc.string({ maxLength: 8 }),
      { maxKeys: 3, noNullPrototype: true },
    ),
    fc.oneof(fc.constant({ work_mem: 4 }), fc.constant({ a: true }), fc.constant("x=1"), fc.constant([["a", "b"]])),
  ),
  poolerEnabled: either(fc.boolean(), notBoolean),
  poolerMode: either(fc.constant("transaction"), fc.constantFrom("session", "statement", "", 1)),
  disabled: either(fc.boolean(), notBoolean),
  passwordlessAccess: either(fc.boolean(), notBoolean),
  provisioner: either(
    fc.constantFrom("k8s-pod", "k8s-neonvm", "serverless-platform"),
    fc.constantFrom("k8s", "neonvm", "", 3),
  ),
  name: either(
    fc.string({ minLength: 1, maxLength: 64 }),
    fc.oneof(fc.constant(""), fc.string({ minLength: 65, maxLength: 90 }), notString),
  ),
  restartTriggers: valid(fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 })),
};

/** restartTriggers that are not a list (ComputeArgs: `unknown[]`); kept apart, see bad-input.test.ts. */
export const NOT_A_LIST = ["v1", 5, { a: 1 }, true];

/** Required ids: project ids ^[a-z0-9-]{1,60}$, branch ids start with br- (api.md). */
const PROJECT_ID = either(
  slug(1, 60),
  fc.oneof(
    fc.constant(""),
    fc.stringMatching(/^[A-Z_]{1,8}$/),
    fc.string({ minLength: 61, maxLength: 70 }).map((s) => s.replace(/./g, "a")),
    notString,
  ),
);
const BRANCH_ID = either(
  slug(1, 40).map((s) => `br-${s}`),
  fc.oneof(
    fc.constant(""),
    fc.constant("main"),
    slug(1, 20).map((s) => `ep-${s}`),
    fc.constant("br-UPPER"),
    notString,
  ),
);

/**
 * Compute inputs: required ids present (valid or not) or absent (invalid), each optional field absent, valid
 * or invalid, sometimes an unknown property. `only` restricts the optional fields (the emulator cross-check).
 */
export function computeCase(
  options: { only?: string[]; ids?: fc.Arbitrary<[string, string]>; unknown?: boolean } = {},
): fc.Arbitrary<Case> {
  const fields = Object.entries(COMPUTE_FIELDS).filter(([k]) => !options.only || options.only.includes(k));
  const optional = Object.fromEntries(fields.map(([k, a]) => [k, fc.option(a, { nil: undefined, freq: 2 })]));
  const ids = options.ids
    ? options.ids.map(([p, b]) => ({ projectId: [p, true] as Field, branchId: [b, true] as Field }))
    : fc.record({
        projectId: fc.option(PROJECT_ID, { nil: undefined, freq: 8 }),
        branchId: fc.option(BRANCH_ID, { nil: undefined, freq: 8 }),
      });
  const extra =
    options.unknown === false
      ? fc.constant(undefined)
      : fc.option(fc.constantFrom("size", "branch_id", "autoscalingLimitMin", "region"), { nil: undefined, freq: 8 });
  return fc
    .record({ ids, optional: fc.record(optional), extra })
    .map(({ ids: idFields, optional: opts, extra: unknownName }) => {
      const inputs: Record<string, unknown> = {};
      const invalidProps: string[] = [];
      for (const [k, field] of Object.entries({ ...idFields, ...opts })) {
        if (field === undefined) {
          if (k === "projectId" || k === "branchId") invalidProps.push(k);
          continue;
        }
        inputs[k] = (field as Field)[0];
        if (!(field as Field)[1]) invalidProps.push(k);
      }
      if (unknownName) {
        inputs[unknownName] = 1;
        invalidProps.push(unknownName);
      }
      const min = inputs.autoscalingLimitMinCu;
      const max = inputs.autoscalingLimitMaxCu;
      const bothValid = SIZES.includes(min as number) && SIZES.includes(max as number);
      // The provider's declarative rule (README): both sizes or neither. A lone size is merged by the service
      // with the compute's current sizes, so whether it is valid depends on state a check cannot see.
      const onlyOne = (min === undefined) !== (max === undefined);
      const suspend = inputs.suspendTimeoutSeconds;
      return {
        inputs,
        invalid: invalidProps,
        badPair: onlyOne || (bothValid && !sizePairValid(min as number, max as number)),
        alwaysActive: typeof min === "number" && min > 16 && suspend !== undefined && suspend !== -1,
      };
    });
}

/**
 * ApiKey inputs: keyName 1..64 characters (api.md), or absent / too long / empty / not a string; maybe an orgId and a
 * projectId (each an id like a project's, ^[a-z0-9-]{1,60}$, or not; a projectId needs an orgId); maybe an extra
 * property.
 */
export function apiKeyCase(): fc.Arbitrary<Case> {
  const scopeId = fc.option(PROJECT_ID, { nil: undefined, freq: 3 });
  return fc
    .record({ named: apiKeyNameCase(), orgId: scopeId, projectId: scopeId })
    .map(({ named, orgId, projectId }) => {
      const inputs = { ...named.inputs };
      const invalidProps = [...named.invalid];
      if (orgId !== undefined) {
        inputs.orgId = orgId[0];
        if (!orgId[1]) invalidProps.push("orgId");
      }
      if (projectId !== undefined) {
        inputs.projectId = projectId[0];
        if (!projectId[1] || orgId === undefined) invalidProps.push("projectId");
      }
      return { inputs, invalid: invalidProps, badPair: false };
    });
}

function apiKeyNameCase(): fc.Arbitrary<Case> {
  const keyName = fc.option(
    either(
      fc.string({ minLength: 1, maxLength: 64 }),
      fc.oneof(fc.constant(""), fc.string({ minLength: 65, maxLength: 100 }), notString),
    ),
    { nil: undefined, freq: 10 },
  );
  const extra = fc.option(fc.constantFrom("key_name", "name", "expiresAt"), { nil: undefined, freq: 6 });
  return fc.record({ keyName, extra }).map(({ keyName: field, extra: unknownName }) => {
    const inputs: Record<string, unknown> = {};
    const invalidProps: string[] = [];
    if (field === undefined) invalidProps.push("keyName");
    else {
      inputs.keyName = field[0];
      if (!field[1]) invalidProps.push("keyName");
    }
    if (unknownName) {
      inputs[unknownName] = "x";
      invalidProps.push(unknownName);
    }
    return { inputs, invalid: invalidProps, badPair: false };
  });
}

/** Problems with a check result against the oracle's verdict (empty: they agree). */
export function disagreements(c: Case, failures: { property: string; reason: string }[]): string[] {
  const problems: string[] = [];
  const named = new Set(failures.map((f) => f.property));
  for (const property of c.invalid)
    if (!named.has(property)) problems.push(`${property} is invalid but check did not name it`);
  const pairProps = ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"];
  if (c.badPair && !pairProps.some((p) => named.has(p)))
    problems.push("the size pair is invalid but check named no size");
  if (c.alwaysActive && !named.has("suspendTimeoutSeconds"))
    problems.push(
      "a compute above 16 CU has a suspend delay other than -1 but check did not name suspendTimeoutSeconds",
    );
  for (const f of failures) {
    const expected =
      c.invalid.includes(f.property) ||
      (c.badPair && pairProps.includes(f.property)) ||
      (c.alwaysActive === true && f.property === "suspendTimeoutSeconds");
    if (!expected) problems.push(`check refused ${f.property} (${f.reason}), which the oracle accepts`);
    if (!f.reason.trim()) problems.push(`check refused ${f.property} without a reason`);
  }
  return problems;
}
