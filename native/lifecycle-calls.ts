/**
 * The resource RPCs (Check, Diff, Create, Read, Update, Delete): each reads its request off the wire (wire.ts), calls
 * the resource's own lifecycle function (resources.ts: the dynamic resources' impl.ts) and writes the answer back,
 * secrets wrapped. The plugin supports previews (Configure): a preview's Create and Update answer what the step will
 * leave, computed without a request (preview.ts); a preview sends no request (Check and Diff are offline too). A state
 * the dynamic provider wrote (a resource moved to this plugin by an alias) is read without its `__provider`, which the
 * next refresh or update drops (moved.ts).
 */
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import {
  CheckFailure,
  CheckRequest,
  CheckResponse,
  CreateRequest,
  CreateResponse,
  DeleteRequest,
  DiffRequest,
  DiffResponse,
  ReadRequest,
  ReadResponse,
  UpdateRequest,
  UpdateResponse,
} from "@pulumi/pulumi/proto/provider_pb";
import { secretOutputs } from "../provider/shared/declaration";
import { diffResponse } from "./diff";
import { Answered } from "./errors";
import { importResource } from "./import";
import { withoutDynamicProvider } from "./moved";
import { Served, servedOf } from "./resources";
import { previewCreate, previewUpdate } from "./preview";
import { parseUrn, withInternalInputs } from "./urn";
import { receive, redactSecrets, send } from "./wire";

/** The resource a request is for, by its type (or its URN's). */
const servedFor = (request: { getType(): string; getUrn(): string }): Served =>
  servedOf(request.getType() || parseUrn(request.getUrn()).type);

/** The outputs to keep secret: the declaration's secret outputs, and those that came in as secrets. */
const secretsOf = ({ declaration }: Served, ...received: Set<string>[]): Set<string> =>
  new Set([...secretOutputs(declaration), ...received.flatMap((s) => [...s])]);

export async function check(request: CheckRequest): Promise<CheckResponse> {
  const served = servedFor(request);
  const olds = withoutDynamicProvider(receive(request.getOlds()).props);
  const news = receive(request.getNews());
  const inputs = withInternalInputs(served.declaration, request.getUrn(), news.props);
  const result = await served.lifecycle.check(olds, inputs);
  const failures = (result.failures ?? []).map((f) =>
    new CheckFailure().setProperty(f.property).setReason(redactSecrets(f.reason, news)),
  );
  return new CheckResponse().setInputs(send(result.inputs ?? inputs, news.secrets)).setFailuresList(failures);
}

export async function diff(request: DiffRequest): Promise<DiffResponse> {
  const served = servedFor(request);
  const olds = receive(request.getOlds());
  const news = receive(request.getNews());
  const oldInputs = request.hasOldInputs() ? receive(request.getOldInputs()).props : olds.props;
  const answer = await served.lifecycle.diff(request.getId(), withoutDynamicProvider(olds.props), news.props);
  return diffResponse(answer, withoutDynamicProvider(oldInputs), news.props);
}

export async function create(request: CreateRequest): Promise<CreateResponse> {
  const served = servedFor(request);
  const inputs = receive(request.getProperties());
  const secrets = secretsOf(served, inputs.secrets);
  if (request.getPreview()) {
    return new CreateResponse().setProperties(send(previewCreate(served.declaration, inputs.props), secrets));
  }
  const result = await Answered.orKeep(secrets, () => served.lifecycle.create(inputs.props));
  return new CreateResponse().setId(result.id).setProperties(send(result.outs ?? {}, secrets));
}

/**
 * Refresh, and an import: the engine sends an import's id alone, with no properties (pulumi/pulumi step.go,
 * ImportStep), and reads the state's inputs from the answer (import.ts).
 */
export async function read(request: ReadRequest): Promise<ReadResponse> {
  const served = servedFor(request);
  const state = receive(request.getProperties());
  const inputs = receive(request.getInputs());
  if (Object.keys(state.props).length === 0) {
    const imported = await importResource(served, request.getId(), request.getUrn());
    return new ReadResponse()
      .setId(imported.id)
      .setProperties(send(imported.outputs, secretsOf(served)))
      .setInputs(send(imported.inputs));
  }
  const result = await served.lifecycle.read(request.getId(), withoutDynamicProvider(state.props));
  const response = new ReadResponse().setId(result.id ?? "");
  if (!result.id) return response; // gone: the engine drops it from the state
  const props = withoutDynamicProvider(result.props ?? {});
  response.setProperties(send(props, secretsOf(served, state.secrets, inputs.secrets)));
  if (result.inputs) response.setInputs(send(withoutDynamicProvider(result.inputs), inputs.secrets));
  return response;
}

export async function update(request: UpdateRequest): Promise<UpdateResponse> {
  const served = servedFor(request);
  const received = receive(request.getOlds());
  const olds = withoutDynamicProvider(received.props);
  const news = receive(request.getNews());
  const secrets = secretsOf(served, received.secrets, news.secrets);
  if (request.getPreview()) {
    return new UpdateResponse().setProperties(send(previewUpdate(served.lifecycle, olds, news.props), secrets));
  }
  const result = await Answered.orKeep(secrets, () => served.lifecycle.update(request.getId(), olds, news.props));
  return new UpdateResponse().setProperties(send(result.outs ?? {}, secrets));
}

export async function deleteResource(request: DeleteRequest): Promise<Empty> {
  const served = servedFor(request);
  await served.lifecycle.delete(request.getId(), withoutDynamicProvider(receive(request.getProperties()).props));
  return new Empty();
}
