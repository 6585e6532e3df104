import { Emulator, startEmulator } from "../../emulator";
import { NeonError } from "../../client";
import { ResourceInitError } from "./errors";
import {
  alreadyProven,
  createSettled,
  CREATE_ATTEMPTS,
  deleteUnlessGone,
  explainGone,
  goneError,
  goneText,
  ProjectObject,
  projectAnswers,
  readOrGone,
  recordedAsItIs,
} from "./lifecycle";
import { configure } from "./runtime";

/**
 * Issue 24, item 2: a refresh that finds an object gone, a delete of one already gone and the message of a change that
 * meets one were written once per resource (five reads, five deletes, four shapes of "no longer exists"). A 404 must
 * never be taken for "gone" unless something that answers shows it missing: else a key that does not reach the project
 * drops from state, or reports as destroyed, an object that still exists.
 */
const notFound = () => new NeonError({ kind: "not_found", status: 404, message: "endpoint not found" });
const lost = () => new NeonError({ kind: "ambiguous", status: 0, message: "the answer was lost" });
const compute: ProjectObject = { kind: "compute", label: "Compute ep-1", projectId: "p-1", docs: "docs/x.md#compute" };

/** A proof that records what it was given. */
function recordingProof() {
  const calls: unknown[] = [];
  return { calls, proof: async (cause?: unknown) => void calls.push(cause) };
}

describe("readOrGone", () => {
  const read = { id: "ep-1", props: { a: 1 } };

  it("answers what the read answers, and an empty read when the read proved the object gone", async () => {
    expect(await readOrGone(async () => read)).toBe(read);
    expect(await readOrGone(async () => undefined)).toEqual({ id: "", props: {} });
  });

  it("a 404 is gone only once proven: with a proof, an empty read; without, the 404 stands", async () => {
    const { calls, proof } = recordingProof();
    const error = notFound();
    expect(
      await readOrGone(async () => {
        throw error;
      }, proof),
    ).toEqual({ id: "", props: {} });
    expect(calls).toEqual([error]);
    await expect(readOrGone(async () => Promise.reject(error))).rejects.toBe(error);
  });

  it("another failure, or a proof that fails, fails the refresh", async () => {
    const { calls, proof } = recordingProof();
    const refused = new NeonError({ kind: "auth", status: 401, message: "no" });
    await expect(readOrGone(async () => Promise.reject(refused), proof)).rejects.toBe(refused);
    expect(calls).toEqual([]);
    const unproven = new Error("neither was its project");
    const failing = async () => Promise.reject(unproven);
    await expect(readOrGone(async () => Promise.reject(notFound()), failing)).rejects.toBe(unproven);
  });
});

describe("deleteUnlessGone", () => {
  it("a delete that found the object needs no proof; one that did not (or a 404) is proven", async () => {
    const { calls, proof } = recordingProof();
    await deleteUnlessGone(async () => true, proof);
    expect(calls).toEqual([]);
    await deleteUnlessGone(async () => false, proof);
    const error = notFound();
    await deleteUnlessGone(async () => Promise.reject(error), proof);
    expect(calls).toEqual([undefined, error]);
  });

  it("an unproven 404 fails the delete with the proof's error", async () => {
    const unproven = new Error("neither was its project");
    await expect(
      deleteUnlessGone(
        async () => false,
        async () => Promise.reject(unproven),
      ),
    ).rejects.toBe(unproven);
    await expect(deleteUnlessGone(async () => false, alreadyProven)).resolves.toBeUndefined();
  });

  it("sends again while the outcome stays unknown, and not when a read back says it happened", async () => {
    let sent = 0;
    await deleteUnlessGone(async () => (++sent === 1 ? Promise.reject(lost()) : true), alreadyProven);
    expect(sent).toBe(2);
    sent = 0;
    const lostEachTime = async () => {
      sent++;
      throw lost();
    };
    await deleteUnlessGone(lostEachTime, alreadyProven, async () => true);
    expect(sent).toBe(1);
  });

  it("a refusal stands, with nothing proven", async () => {
    const { calls, proof } = recordingProof();
    const refusal = new NeonError({ kind: "validation", status: 422, message: "protected" });
    await expect(deleteUnlessGone(async () => Promise.reject(refusal), proof)).rejects.toBe(refusal);
    expect(calls).toEqual([]);
  });
});

describe("the messages of an object gone: one line, what happened, what to do, the docs", () => {
  const role: ProjectObject = { kind: "role", label: "Role app", projectId: "p-1", branchId: "br-1", docs: "d#role" };

  it("says where it was, that it was deleted outside Pulumi, and the 404", () => {
    expect(goneText(compute, { cause: notFound() })).toBe(
      "Compute ep-1 no longer exists in project p-1: it was deleted outside Pulumi (HTTP 404: endpoint not found).",
    );
    expect(goneText(role, { also: "or it expired" })).toBe(
      "Role app no longer exists on branch br-1 of project p-1: it was deleted outside Pulumi, or it expired.",
    );
  });

  it("a change: refresh, then up creates it again (or what else to do), ending with its docs", () => {
    const cause = notFound();
    const error = goneError(compute, { cause });
    expect(error.message).toBe(
      "Compute ep-1 no longer exists in project p-1: it was deleted outside Pulumi (HTTP 404: endpoint not found). " +
        "Run `pulumi refresh` to remove it from the state, then `pulumi up` creates it again, or run both at once " +
        "with `pulumi up --refresh` (docs/x.md#compute).",
    );
    expect(error.cause).toBe(cause);
    expect(goneError(role, { refused: true, next: "give it another name" }).message).toBe(
      "Role app no longer exists on branch br-1 of project p-1: it was deleted outside Pulumi. Nothing was changed. " +
        "Run `pulumi refresh` to remove it from the state, then give it another name (d#role).",
    );
    expect(error.message).not.toContain("\n");
  });
});

describe("projectAnswers", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ operationDurationMs: 5, rateLimit: false });
    configure({ get: (key) => ({ "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.baseUrl })[key] });
  });
  afterAll(async () => {
    configure(undefined);
    await emulator.close();
  });

  it("resolves when the project answers", async () => {
    await expect(projectAnswers({ ...compute, projectId: emulator.projectId })).resolves.toBeUndefined();
  });

  it("a project that answers 404 too: nothing can be concluded, nothing was changed, and what to do", async () => {
    const error = await projectAnswers({ ...compute, projectId: "no-such-project" }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^Compute ep-1 was not found, and neither was its project no-such-project, so it is not known whether the compute is gone: .*pulumi state delete .*use a key that does\. Nothing was changed \(docs\/troubleshooting\.md\)\.$/,
    );
    expect(((error as Error).cause as NeonError).kind).toBe("not_found");
  });

  it("explainGone: a change's 404 of an object its project lacks says so, with what to do", async () => {
    const object = { ...compute, projectId: emulator.projectId };
    const error = notFound();
    const gone = (await explainGone(error, object, { present: async () => false, also: "or it expired" })) as Error;
    expect(gone.message).toMatch(
      /^Compute ep-1 no longer exists in project .*: it was deleted outside Pulumi, or it expired/,
    );
    expect(gone.cause).toBe(error);
    // Without a presence check, the project answering is the proof.
    expect(((await explainGone(error, object)) as Error).message).toMatch(/^Compute ep-1 no longer exists/);
  });

  it("explainGone: an object still there keeps the 404, or what `otherwise` finds; other errors stand", async () => {
    const object = { ...compute, projectId: emulator.projectId };
    const error = notFound();
    expect(await explainGone(error, object, { present: async () => true })).toBe(error);
    const branchGone = new Error("the branch it moves to is gone");
    expect(await explainGone(error, object, { present: async () => true, otherwise: async () => branchGone })).toBe(
      branchGone,
    );
    const refused = new NeonError({ kind: "validation", status: 422, message: "no" });
    expect(await explainGone(refused, object)).toBe(refused);
    const failing = async () => Promise.reject(lost());
    expect(await explainGone(error, object, { present: failing })).toBe(error); // a failed read proves nothing
  });

  it("explainGone: a project that does not answer either: nothing can be concluded", async () => {
    const explained = (await explainGone(notFound(), { ...compute, projectId: "no-such-project" })) as Error;
    expect(explained.message).toMatch(/^Compute ep-1 was not found, and neither was its project no-such-project/);
  });
});

describe("createSettled", () => {
  it("sends again only while the outcome stays unknown, at most CREATE_ATTEMPTS times", async () => {
    const attempts: number[] = [];
    const made = await createSettled(async (attempt) => {
      attempts.push(attempt);
      if (attempt < 3) throw lost();
      return "made";
    });
    expect(made).toBe("made");
    expect(attempts).toEqual([1, 2, 3]);
    let sent = 0;
    const stillLost = createSettled(async () => {
      sent++;
      throw lost();
    });
    await expect(stillLost).rejects.toMatchObject({ kind: "ambiguous" });
    expect(sent).toBe(CREATE_ATTEMPTS);
  });

  it("any other failure is the create's, at once", async () => {
    let sent = 0;
    const refused = new NeonError({ kind: "conflict", status: 409, message: "taken" });
    await expect(
      createSettled(async () => {
        sent++;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(sent).toBe(1);
  });
});

describe("recordedAsItIs", () => {
  const failed = new NeonError({ kind: "wait_timeout", status: 0, message: "its operations timed out" });
  const inputs = { name: "x", __provider: "serialized" };

  it("records the object as read now, with its id and the step's __provider", async () => {
    const recorded = (await recordedAsItIs("ep-1", inputs, failed, { read: async () => ({ name: "x", a: 1 }) })) as
      ResourceInitError | undefined;
    expect(recorded).toBeInstanceOf(ResourceInitError);
    expect(recorded).toMatchObject({ id: "ep-1", properties: { name: "x", a: 1, __provider: "serialized" } });
    expect(recorded!.message).toBe(`ep-1 exists but is not ready: ${failed.message}`);
  });

  it("unread: what to record then, else the error stands; not there after all: the error stands", async () => {
    const unreadable = async () => Promise.reject(lost());
    const unread = { name: "x", type: "read_write" };
    expect(await recordedAsItIs("ep-1", inputs, failed, { read: unreadable, unread })).toMatchObject({
      properties: { ...unread, __provider: "serialized" },
    });
    expect(await recordedAsItIs("ep-1", inputs, failed, { read: unreadable })).toBe(failed);
    expect(await recordedAsItIs("ep-1", inputs, failed, { read: async () => undefined, unread })).toBe(failed);
  });

  it("a ready object whose change was not made says so in the error's own words", async () => {
    const message = "the move was not made";
    const recorded = (await recordedAsItIs("ep-1", inputs, failed, { read: async () => ({}), message })) as Error;
    expect(recorded.message).toBe(message);
  });
});
