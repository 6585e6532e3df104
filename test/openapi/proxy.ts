/**
 * A recording reverse proxy: lets a client we cannot instrument (the `neonctl` child process) talk to the
 * emulator while every response it receives is still validated against the contract by a {@link ContractRecorder}.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import type { ContractRecorder } from "./recorder";

export interface RecordingProxy {
  /** Same path as the target's base URL (`.../api/v2`), on the proxy's port. */
  baseUrl: string;
  close(): Promise<void>;
}

function parse(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Forwards every request unchanged (except `accept-encoding`, so bodies stay readable) and records the responses. */
export async function startRecordingProxy(targetBaseUrl: string, recorder: ContractRecorder): Promise<RecordingProxy> {
  const target = new URL(targetBaseUrl);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host };
    delete headers["accept-encoding"];
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
      (up) => {
        const chunks: Buffer[] = [];
        up.on("data", (c: Buffer) => chunks.push(c));
        up.on("end", () => {
          const payload = Buffer.concat(chunks);
          const status = up.statusCode ?? 502;
          recorder.check(
            req.method ?? "GET",
            req.url ?? "/",
            status,
            parse(payload.toString("utf8")),
            up.headers["content-type"],
          );
          res.writeHead(status, up.headers);
          res.end(payload);
        });
      },
    );
    upstream.on("error", (error) => {
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: "", message: `proxy: ${error.message}` }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, "")}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
