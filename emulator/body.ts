/** Request bodies: capped while read (413), parsed as JSON (400), so no body can exhaust memory or cause a 5xx. */
import type { IncomingMessage } from "node:http";
import { ApiError, payloadTooLarge } from "./errors";

/** True when the request announces a body. */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers["content-length"];
  return (len !== undefined && len !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/** Reads the body up to `max` bytes; a larger one ends as 413 without reading the rest into memory. */
export function readBody(req: IncomingMessage, max: number, done: (err?: ApiError, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (err?: ApiError, body?: Buffer): void => {
    if (finished) return;
    finished = true;
    done(err, body);
  };
  if (Number(req.headers["content-length"]) > max) return finish(payloadTooLarge(max));
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size > max) finish(payloadTooLarge(max));
    else if (!finished) chunks.push(c);
  });
  req.on("end", () => finish(undefined, Buffer.concat(chunks, size)));
  req.on("error", () => finish(new ApiError(400, "the request body could not be read")));
}

/** The parsed JSON body, undefined when empty; malformed JSON is a 400. */
export function parseJson(buf: Buffer | undefined): unknown {
  if (!buf || buf.length === 0) return undefined;
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch {
    throw new ApiError(400, "the request body is not valid JSON");
  }
}
