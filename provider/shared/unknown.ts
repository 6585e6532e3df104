/**
 * The value the engine sends for a property whose value is not known yet (during preview, an output of a
 * resource that does not exist yet). `check` must let it pass and `diff` must treat it as a change: refusing
 * it would fail every preview of a program whose compute sits on a branch created in the same program.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the engine does not know the value yet (preview), anywhere inside it. */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}
