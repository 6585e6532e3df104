/**
 * Typed API errors. Routes throw these; `server.ts` turns them into the real service's error body
 * `{code, message, request_id}` in one place, so no route can answer a malformed error or a 5xx for bad input.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = "",
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** 400 naming the field, so a client's user can fix the input without reading the emulator's source. */
export const badRequest = (message: string): ApiError => new ApiError(400, message);

/** 401: missing, unknown or revoked key; the message never echoes the presented key. */
export const unauthorized = (message = "authentication required"): ApiError => new ApiError(401, message);

/** 404 with the real service's wording (`endpoint not found`, `project not found`, ...). */
export const notFound = (what: string): ApiError => new ApiError(404, `${what} not found`);

/** 405 with the methods the path does accept. */
export const methodNotAllowed = (allowed: string[]): ApiError =>
  new ApiError(405, `method not allowed; this path accepts ${allowed.join(", ")}`, "", { Allow: allowed.join(", ") });

/** 409 for the second primary compute of a branch. */
export const conflict = (message: string): ApiError => new ApiError(409, message);

/**
 * 422: a request the service understood but cannot carry out in the object's present state (`branch not ready
 * yet`, api.md; and the emulator's guesses for an idle restart and a delete on a protected branch).
 */
export const unprocessable = (message: string): ApiError => new ApiError(422, message);

/** The real 423 message: clients (and the official SDK guidance) recognise it to wait and retry. */
export const LOCKED_MESSAGE =
  "project already has running conflicting operations, scheduling of new ones is prohibited";
export const locked = (): ApiError => new ApiError(423, LOCKED_MESSAGE);

/** 429 from the rate limiter or an injected fault; `Retry-After` only when given (the real service sends none). */
export const tooManyRequests = (retryAfterSeconds?: number): ApiError =>
  new ApiError(
    429,
    "rate limit exceeded",
    "",
    retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) },
  );

/** 413 for a body over the cap, so a huge upload cannot exhaust the emulator's memory. */
export const payloadTooLarge = (limit: number): ApiError =>
  new ApiError(413, `request body is larger than ${limit} bytes`);
