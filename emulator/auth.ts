import { unauthorized } from "./errors";
import type { Store } from "./store";
import type { Account, KeyRecord } from "./types";

const BEARER = /^Bearer +(\S{1,512}) *$/i;

/**
 * Bearer authentication, checked on every request (so a revocation applies to the very next request, also on
 * a kept-alive connection). Records last_used_at and last_used_from_addr on every authenticated use. The
 * messages never echo the presented key.
 */
export function authenticate(
  store: Store,
  header: string | undefined,
  remoteAddr: string | undefined,
  now: number,
): { account: Account; key: KeyRecord } {
  if (!header) throw unauthorized("authentication required: send the header Authorization: Bearer <API key>");
  const m = BEARER.exec(header);
  if (!m) throw unauthorized("the Authorization header must be: Bearer <API key>");
  const key = store.findKey(m[1]);
  const account = key && !key.revoked ? store.accounts.get(key.accountId) : undefined;
  if (!key || !account) throw unauthorized("invalid or revoked API key");
  key.lastUsedAt = now;
  key.lastUsedFromAddr = normalizeAddr(remoteAddr);
  store.dirty = true;
  return { account, key };
}

/**
 * The valid key a request presents, without recording its use, or undefined: lets a request to a path the key may not
 * reach be refused for its scope (403) even where the path itself answers 405.
 */
export function peekKey(store: Store, header: string | undefined): KeyRecord | undefined {
  const m = header ? BEARER.exec(header) : null;
  const key = m ? store.findKey(m[1]) : undefined;
  return key && !key.revoked && store.accounts.has(key.accountId) ? key : undefined;
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, as the real service reports IPv4 callers. */
export function normalizeAddr(addr: string | undefined): string {
  if (!addr) return "";
  return addr.startsWith("::ffff:") ? addr.slice(7) : addr;
}
