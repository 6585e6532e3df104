/**
 * Preloaded (`node --require`) into every plugin process the local engine starts: the plugin ends when the process
 * that started it ends, however that one ends. A jest worker killed for its memory, or a test that timed out in the
 * middle of a command, used to leave plugin processes running after the test run (issue 23, item 9).
 *
 * The parent holds the write end of our stdin; when it exits, even by SIGKILL, the pipe closes and we exit too.
 * Nothing ever writes to it. The real engine starts plugins without this guard (it has its own: plugin.go Close).
 */
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
