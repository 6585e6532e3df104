/**
 * `check` and `diff` for ApiKey: pure, so preview is offline.
 */
import { CheckFailure } from "./validators";
import { isUnknown } from "./unknown";
import { isString, lengthBetween, required } from "./validators";

const validateKeyName = required(isString, lengthBetween(1, 64));

/** Validates ApiKey inputs: a key name of 1 to 64 characters, and nothing else. */
export function checkApiKeyInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const property of Object.keys(news)) {
    if (property !== "__provider" && property !== "keyName") {
      failures.push({ property, reason: "is not an ApiKey property; known: keyName" });
    }
  }
  const reason = isUnknown(news.keyName) ? undefined : validateKeyName(news.keyName);
  return reason ? [...failures, { property: "keyName", reason }] : failures;
}

/** A key's name cannot change: a new name means a new key, created before the old one is revoked. */
export function planApiKeyChange(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const replaces = news.keyName !== olds.keyName ? ["keyName"] : [];
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}
