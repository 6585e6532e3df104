/**
 * Diff's answer with a detailed diff: each property the resource's plan found changed, with its kind (update, or add
 * and delete for a property set or removed; `_REPLACE` for one that replaces the object), against the old inputs.
 * Without it the engine shows `"detailedDiff": null` in `pulumi preview --json` (the dynamic plugin's answer, and
 * `@pulumi/pulumi` provider.main's: ../shared/reference, native-provider.md), and a pipeline cannot tell which
 * property changed or whether it replaces.
 */
import { DiffResponse, PropertyDiff } from "@pulumi/pulumi/proto/provider_pb";
import type { DiffAnswer } from "../provider/shared/diff-answer";

type Props = Record<string, unknown>;
const Kind = PropertyDiff.Kind;

/** The kind of a property's change, from whether it was and is set, and whether it replaces. */
export function kindOf(before: unknown, after: unknown, replaces: boolean): PropertyDiff.Kind {
  if (before === undefined || before === null) return replaces ? Kind.ADD_REPLACE : Kind.ADD;
  if (after === undefined || after === null) return replaces ? Kind.DELETE_REPLACE : Kind.DELETE;
  return replaces ? Kind.UPDATE_REPLACE : Kind.UPDATE;
}

/**
 * The DiffResponse of a resource's diff answer. `oldInputs` are what the program gave last time (the engine sends them:
 * Configure's `sendsOldInputs`); a change the plan found without naming a property (a Branch's recorded declaration)
 * leaves the detailed diff to the engine's own comparison.
 */
export function diffResponse(answer: DiffAnswer, oldInputs: Props, news: Props): DiffResponse {
  const response = new DiffResponse();
  const replaces = answer.replaces ?? [];
  response.setReplacesList(replaces);
  response.setDeletebeforereplace(answer.deleteBeforeReplace === true);
  if (answer.changes === false) {
    response.setChanges(DiffResponse.DiffChanges.DIFF_NONE);
    response.setHasdetaileddiff(true);
    return response;
  }
  response.setChanges(answer.changes ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_UNKNOWN);
  const changed = [...new Set([...(answer.diffs ?? []), ...replaces])];
  if (changed.length === 0) return response;
  response.setDiffsList(changed);
  response.setHasdetaileddiff(true);
  const detailed = response.getDetaileddiffMap();
  for (const property of changed) {
    const kind = kindOf(oldInputs[property], news[property], replaces.includes(property));
    detailed.set(property, new PropertyDiff().setKind(kind).setInputdiff(true));
  }
  return response;
}
