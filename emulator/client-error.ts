/**
 * Requests that Node's HTTP parser refuses (an oversized request line or headers, an unknown method, broken
 * framing) never reach the app: Node would answer them with an empty body. This answers them as the API
 * answers every error, a 4xx with `{code, message, request_id}`, so a client never meets a non-JSON error.
 */
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";

/** Handler for the server's `clientError` event. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? 431 : 400;
  const message = tooLarge ? "request line or headers too large" : "malformed HTTP request";
  const body = JSON.stringify({ code: "", message, request_id: randomUUID() });
  const reason = tooLarge ? "Request Header Fields Too Large" : "Bad Request";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
