/**
 * One comparison per property, the row's (`same` in declaration.ts), used by Check and Diff alike (issue 23, item 7):
 * every spelling Check accepts of one LSN or one instant is the same value (a re-spelled LSN once planned a
 * replacement, which deletes the branch and its data, and failed the preview of a protected branch), and two different
 * values are never the same.
 */
import fc from "fast-check";
import { sameValue, validatorOf } from "../shared/declaration";
import { BRANCH } from "./declaration";
import { checkReplaceProtected, planBranchChange } from "./plan";

const RUNS = { numRuns: 500 };

/** A hex number of up to 8 digits as the API may spell it: leading zeros up to 8 digits, each digit in either case. */
const hexSpelling = (n: number) =>
  fc
    .tuple(
      fc.integer({ min: 0, max: 8 - n.toString(16).length }),
      fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    )
    .map(([zeros, upper]) =>
      [...("0".repeat(zeros) + n.toString(16))].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(""),
    );

const word = fc.integer({ min: 0, max: 0xffffffff });
const lsnSpelling = (hi: number, lo: number) => fc.tuple(hexSpelling(hi), hexSpelling(lo)).map(([h, l]) => `${h}/${l}`);

/** An instant: whole seconds (2000..2099) and the digits of its fraction (none, or up to 9, no trailing zero). */
const instant = fc.record({
  seconds: fc.integer({ min: 946_684_800, max: 4_102_444_799 }),
  fraction: fc.stringMatching(/^(\d{0,8}[1-9])?$/),
});

const two = (n: number) => String(n).padStart(2, "0");

/** One spelling of an instant in RFC 3339: any zone offset, `T`/`t`, `Z`/`z`/`+00:00`/`-00:00`, trailing zeros. */
function instantSpelling({ seconds, fraction }: { seconds: number; fraction: string }) {
  return fc
    .record({
      offset: fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
      utcAs: fc.constantFrom("Z", "z", "+00:00", "-00:00"),
      t: fc.constantFrom("T", "t"),
      zeros: fc.integer({ min: 0, max: fraction === "" ? 3 : 9 - fraction.length }),
    })
    .map(({ offset, utcAs, t, zeros }) => {
      const local = new Date((seconds + offset * 60) * 1000);
      const date = `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`;
      const time = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
      const digits = fraction + "0".repeat(zeros);
      const zone =
        offset === 0
          ? utcAs
          : `${offset < 0 ? "-" : "+"}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
      return `${date}${t}${time}${digits ? `.${digits}` : ""}${zone}`;
    });
}

/** What Check accepts of a property (its row's validator). */
const accepts = (property: "parentLsn" | "parentTimestamp", value: string) =>
  validatorOf(BRANCH.inputs[property])(value) === undefined;

/**
 * The row's comparison, and both comparisons Check and Diff make with it: the Diff's (old outputs with `origin`) and
 * Check's (old inputs), which must agree with it.
 */
function sameBoth(property: string, before: string, after: string): [boolean, boolean] {
  const same = sameValue(BRANCH, property, before, after);
  const outputs = { projectId: "p", [property]: before, origin: { [property]: before } };
  const viaDiff = planBranchChange(outputs, { projectId: "p", [property]: after }).replaces.length === 0;
  const viaCheck =
    checkReplaceProtected(
      { projectId: "p", protected: true, [property]: before },
      { projectId: "p", [property]: after },
    ).length === 0;
  expect([viaDiff, viaCheck]).toEqual([same, same]);
  return [viaDiff, viaCheck];
}

describe("parentLsn: one comparison for Check and Diff", () => {
  it("every spelling Check accepts of one LSN is the same LSN, to both", () => {
    const lsn = fc.tuple(word, word).chain(([hi, lo]) => fc.tuple(lsnSpelling(hi, lo), lsnSpelling(hi, lo)));
    fc.assert(
      fc.property(lsn, ([a, b]) => {
        expect([accepts("parentLsn", a), accepts("parentLsn", b)]).toEqual([true, true]);
        expect(sameBoth("parentLsn", a, b)).toEqual([true, true]);
      }),
      RUNS,
    );
  });

  it("two different LSNs differ, to both, however spelled", () => {
    const pair = fc
      .tuple(word, word, word, word)
      .filter(([a, b, c, d]) => a !== c || b !== d)
      .chain(([a, b, c, d]) => fc.tuple(lsnSpelling(a, b), lsnSpelling(c, d)));
    fc.assert(
      fc.property(pair, ([a, b]) => expect(sameBoth("parentLsn", a, b)).toEqual([false, false])),
      RUNS,
    );
  });

  it("the issue's case: 0/19623D8 and 0/019623D8", () => {
    expect(sameBoth("parentLsn", "0/19623D8", "0/019623D8")).toEqual([true, true]);
  });
});

describe("parentTimestamp: one comparison for Check and Diff", () => {
  it("every spelling Check accepts of one instant is the same instant, to both", () => {
    const spellings = instant.chain((at) => fc.tuple(instantSpelling(at), instantSpelling(at)));
    fc.assert(
      fc.property(spellings, ([a, b]) => {
        expect([accepts("parentTimestamp", a), accepts("parentTimestamp", b)]).toEqual([true, true]);
        expect(sameBoth("parentTimestamp", a, b)).toEqual([true, true]);
      }),
      RUNS,
    );
  });

  it("two different instants differ, to both, however spelled (to the digit: microseconds are not rounded away)", () => {
    const pair = fc
      .tuple(instant, instant)
      .filter(([x, y]) => x.seconds !== y.seconds || x.fraction !== y.fraction)
      .chain(([x, y]) => fc.tuple(instantSpelling(x), instantSpelling(y)));
    fc.assert(
      fc.property(pair, ([a, b]) => expect(sameBoth("parentTimestamp", a, b)).toEqual([false, false])),
      RUNS,
    );
  });
});
