/**
 * The module path that the `__provider` of a Compute written by version 0.2.0 and earlier loads
 * (`require("pulumi-neon-dynamic/provider/compute-impl")`): old state runs the installed code through it. New state
 * loads `provider/compute/impl` directly. Keep this file while such state may exist (test/legacy holds one).
 */
export * from "./compute/impl";
