/** Option objects as callers pass them, with `undefined` meaning "not set" (so a default is not overwritten). */

/** The properties of `value` that are set: spread over defaults, an explicit `undefined` keeps the default. */
export function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
