/**
 * pulumi-neon-dynamic/testing: a local engine for tests. It runs a Pulumi program against the real dynamic-provider
 * plugin the way the Pulumi CLI does (previews, updates, refreshes and destroys, each in new plugin processes, with
 * the whole stack configuration), following the engine's step rules (pulumi/pulumi v3.248.0). It is not the Pulumi
 * CLI: see testing/README.md for what it does not do. `new LocalStack({ engine: "auto" })` runs the same commands on
 * the real Pulumi CLI where one is installed (`CliStack`), with the same API and results.
 */
export {
  LocalStack,
  LocalStackOptions,
  CommandOptions,
  CommandResult,
  Command,
  Engine,
  EngineChoice,
  ENGINE_VARIABLE,
} from "./stack";
export { StepRecord, StepOp } from "./steps";
export { Diagnostic, Severity } from "./diagnostics";
export { ConfigInput } from "./config";
export { Program } from "./program";
export { moduleProgram } from "./module-program";
export { renderResult, renderStep, ReportOptions, StepLineOptions } from "./report";
export { Snapshot, ResourceState, PendingOperation } from "./state";
export { CliStack, CliStackOptions, CLI_TEST_PASSPHRASE } from "./cli-stack";
export { findPulumiCli } from "./cli";
