import { parseArgs, limitMs, minimumRequests } from "./config";
import { runOurs } from "./ours";
import { runBaseline, BASELINES } from "./baselines";
import { captureInputs, emulatorFor } from "./world";

async function main() {
  const config = parseArgs(process.argv.slice(2));
  const captured = await captureInputs();
  const emulator = await emulatorFor(config, 10);
  const n = config.computes;
  const ours = await runOurs(emulator, captured, config, { projects: 1, perProject: n, parallel: config.parallel });
  console.log("ours", ours.wallMs / limitMs(config, n), ours.requests / minimumRequests(n), JSON.stringify(ours));
  if (process.argv.includes("--baselines")) for (const b of BASELINES) {
    const r = await runBaseline(emulator, b, config, n);
    console.log(b.name, r.wallMs / limitMs(config, n), r.requests / minimumRequests(n), JSON.stringify(r));
  }
  await emulator.close();
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
