/**
 * The module path that the `__provider` of an ApiKey written by version 0.2.0 and earlier loads
 * (`require("pulumi-neon-dynamic/provider/api-key-impl")`): old state runs the installed code through it. New state
 * loads `provider/api-key/impl` directly. Keep this file while such state may exist (test/legacy holds one).
 */
export * from "./api-key/impl";
