#!/usr/bin/env node
// @ts-check
/**
 * A stand-in for Pulumi's Node.js language host, `pulumi-language-nodejs`, for machines that cannot get the real
 * one: its Go module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is refused by the Go
 * module proxy here, while the CLI's module (pkg/v3) is served. The CLI needs a language host only to run a
 * `Pulumi.yaml` program from its directory (`pulumi up` in an example); Automation API inline programs serve
 * themselves and never start one.
 *
 * It does what the real host's `Run` does (sdk/nodejs/cmd/pulumi-language-nodejs/main.go at v3.248.0): it starts
 * `node <@pulumi/pulumi/cmd/run> --monitor … --engine … --project … --stack … --pwd … [--dry-run] --parallel N <main>`
 * in the program's directory, with PULUMI_CONFIG (keys as `<namespace>:config:<name>`, `constructConfig`),
 * PULUMI_CONFIG_SECRET_KEYS and PULUMI_NODEJS_TYPESCRIPT (the `typescript` runtime option, true by default,
 * `parseOptions`), and reports exit code 32 as "already reported" (`Bail`). So the program runs in the SDK's own
 * runner exactly as under the real host; the engine, the plugins and the state are the real CLI's.
 *
 * What it leaves out, each because this project's programs and tests do not use it: the monitor proxy and the
 * synchronous-invoke pipes (`--sync`: the SDK then invokes asynchronously), plugin discovery from node_modules
 * (`GetRequiredPackages` answers none: the dynamic provider's plugin is bundled with the CLI), `pulumi install`,
 * `pulumi about`, `pulumi new`, debugging and the bun runtime. Those calls answer UNIMPLEMENTED, and the engine
 * says which call failed.
 */
const { spawn } = require("child_process");

/** Modules resolve from the program's directory first (its own @pulumi/pulumi), then from this repository. */
function load(request) {
  return require(require.resolve(request, { paths: [process.cwd(), __dirname] }));
}

const grpc = load("@grpc/grpc-js");
const languageRpc = load("@pulumi/pulumi/proto/language_grpc_pb");
const languageProto = load("@pulumi/pulumi/proto/language_pb");
const pluginProto = load("@pulumi/pulumi/proto/plugin_pb");
const emptyProto = load("google-protobuf/google/protobuf/empty_pb");

/** `nodeJSProcessExitedAfterShowingUserActionableMessage` in the Go host: the program already printed why. */
const EXIT_ALREADY_REPORTED = 32;
const VERSION = process.env.PULUMI_LANGUAGE_HOST_VERSION || "3.248.0";

const engineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-")) || "";

/** `constructConfig`: `neon:apiKey` is passed to the program as `neon:config:apiKey`. */
function programConfig(request) {
  const config = {};
  for (const [key, value] of request.getConfigMap().entries()) {
    const separator = key.indexOf(":");
    config[separator < 0 ? key : `${key.slice(0, separator)}:config:${key.slice(separator + 1)}`] = value;
  }
  return JSON.stringify(config);
}

/** `parseOptions`: the runtime options of Pulumi.yaml (`runtime: {name: nodejs, options: {...}}`). */
function runtimeOptions(info) {
  const options = info && info.getOptions() ? info.getOptions().toJavaScript() : {};
  return {
    typescript: options.typescript === undefined ? true : options.typescript === true,
    tsconfig: typeof options.tsconfig === "string" ? options.tsconfig : "",
    nodeargs: typeof options.nodeargs === "string" ? options.nodeargs.split(/\s+/).filter(Boolean) : [],
  };
}

/** `constructArguments`, in the same order. */
function runArguments(request, runPath) {
  const info = request.getInfo();
  const args = [runPath];
  const append = (name, value) => {
    if (value) args.push(`--${name}`, String(value));
  };
  append("monitor", request.getMonitorAddress());
  append("engine", engineAddress);
  append("organization", request.getOrganization());
  append("project", request.getProject());
  append("root-directory", info ? info.getRootDirectory() : "");
  append("stack", request.getStack());
  append("pwd", info ? info.getProgramDirectory() : request.getPwd());
  if (request.getDryrun()) args.push("--dry-run");
  append("parallel", request.getParallel());
  args.push(info ? info.getEntryPoint() || "." : request.getProgram() || ".");
  args.push(...request.getArgsList());
  return args;
}

function run(call, callback) {
  const request = call.request;
  const info = request.getInfo();
  const programDirectory = (info && info.getProgramDirectory()) || request.getPwd() || process.cwd();
  const response = new languageProto.RunResponse();
  let runPath;
  try {
    runPath = require.resolve("@pulumi/pulumi/cmd/run", { paths: [programDirectory] });
  } catch {
    response.setError(
      `could not find @pulumi/pulumi/cmd/run from ${programDirectory}: run npm install in the program's directory`,
    );
    return callback(null, response);
  }
  const options = runtimeOptions(info);
  const env = {
    ...process.env,
    PULUMI_CONFIG: programConfig(request),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(request.getConfigsecretkeysList()),
  };
  if (options.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (options.tsconfig) env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;
  const child = spawn(process.execPath, [...options.nodeargs, ...runArguments(request, runPath)], {
    cwd: programDirectory,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("error", (error) => {
    response.setError(`Problem executing program (could not run language executor): ${error.message}`);
    callback(null, response);
  });
  child.on("exit", (code, signal) => {
    if (code === EXIT_ALREADY_REPORTED) response.setBail(true);
    else if (code !== 0) response.setError(`Program exited with non-zero exit code: ${code ?? signal}`);
    callback(null, response);
  });
}

function getRequiredPackages(_call, callback) {
  const response = new languageProto.GetRequiredPackagesResponse();
  response.setPackagesList([]);
  callback(null, response);
}

function getRequiredPlugins(_call, callback) {
  const response = new languageProto.GetRequiredPluginsResponse();
  response.setPluginsList([]);
  callback(null, response);
}

function getPluginInfo(_call, callback) {
  const response = new pluginProto.PluginInfo();
  response.setVersion(VERSION);
  callback(null, response);
}

function handshake(_call, callback) {
  callback(null, new languageProto.LanguageHandshakeResponse());
}

function cancel(_call, callback) {
  callback(null, new emptyProto.Empty());
}

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(languageRpc.LanguageRuntimeService, {
  handshake,
  getRequiredPlugins,
  getRequiredPackages,
  run,
  getPluginInfo,
  cancel,
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    process.stderr.write(`pulumi-language-nodejs (stand-in): could not start the language host: ${error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
