/**
 * Scripted replies: a test device, not a service behaviour. A rule rewrites the reply to the next matching requests
 * after the route ran (what the route changed stays changed), so that a client can be proved against answers the
 * contract allows but this emulator never gives on its own: an optional field left out or `null`, another value,
 * another status for a refusal whose real status no source gives. Nothing here claims the real service answers so.
 */
import { matches } from "./faults";

/** A reply as the route (or the error body) made it: its status and JSON body. */
export interface ScriptedReply {
  status: number;
  body: unknown;
}

export interface ReplyRule {
  method?: string;
  /** Substring of, or pattern for, the path after /api/v2. */
  path?: string | RegExp;
  /** How many matching requests it rewrites; default 1. */
  times?: number;
  /** The reply to send instead (the status may change; headers other than the length stay). */
  rewrite(reply: ScriptedReply): ScriptedReply;
}

export class ReplyScript {
  private readonly rules: (ReplyRule & { left: number })[] = [];

  add(rule: ReplyRule): void {
    this.rules.push({ ...rule, left: rule.times ?? 1 });
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** The reply for this request: rewritten by the first rule that matches it (which then counts down), else as is. */
  apply<R extends ScriptedReply>(method: string, path: string, reply: R): R {
    const i = this.rules.findIndex((r) => matches(r, method, path));
    if (i < 0) return reply;
    const rule = this.rules[i];
    if (--rule.left <= 0) this.rules.splice(i, 1);
    return { ...reply, ...rule.rewrite({ status: reply.status, body: structuredClone(reply.body) }) };
  }
}
