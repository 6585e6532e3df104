/**
 * A lifecycle error as the engine reads it. An error carrying an `id` (provider/shared/errors.ts, ResourceInitError: the
 * object exists but the step did not finish) becomes `ErrorResourceInitFailed` in the status details, so that the
 * engine keeps the object in state and nothing is orphaned; its properties keep their secrets wrapped. Any other error
 * is its message, as the dynamic plugin sends it (@pulumi/pulumi cmd/dynamic-provider, grpcResponseFromError).
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { ErrorResourceInitFailed } from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { send } from "./wire";

type Props = Record<string, unknown>;

interface InitFailure {
  id?: unknown;
  properties?: Props;
  reasons?: string[];
}

/** The gRPC error for `error`; `secrets` names the properties to keep secret in a half-made object's state. */
export function grpcError(error: unknown, secrets: Iterable<string> = []): Partial<grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  const failure = (typeof error === "object" && error !== null ? error : {}) as InitFailure;
  const metadata = new grpc.Metadata();
  if (typeof failure.id === "string" && failure.id !== "") {
    const detail = new ErrorResourceInitFailed();
    detail.setId(failure.id);
    detail.setProperties(send(failure.properties ?? {}, secrets));
    detail.setReasonsList(failure.reasons ?? [message]);
    const packed = new Any();
    packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(packed);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

/** An error already in the engine's terms: the RPC answers its status as it is. */
export class Answered extends Error {
  constructor(readonly status: Partial<grpc.StatusObject>) {
    super(status.details);
  }

  /**
   * Runs a step that may leave an object half made: its error becomes the engine's, the half-made object's properties
   * in `secrets` kept secret.
   */
  static async orKeep<T>(secrets: Iterable<string>, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      throw new Answered(grpcError(error, secrets));
    }
  }
}

/** The status an RPC answers for `error`. */
export const statusOf = (error: unknown): Partial<grpc.StatusObject> =>
  error instanceof Answered ? error.status : grpcError(error);

/** An RPC this plugin does not serve (yet), saying so. */
export function unimplemented(what: string): Partial<grpc.StatusObject> {
  return { code: grpc.status.UNIMPLEMENTED, details: what };
}
