import { parentPort, workerData } from "node:worker_threads";
import { judgeFiles, type JudgeRequest } from "./judge";

/*
 * The worker thread the start-up check judges in, so that the server's own thread serves at once.
 * It answers once, with the records or with the error that stopped it; its standard output is the
 * parent's to route (never the protocol's stdout).
 */

const port = parentPort;
if (port !== null) {
  try {
    port.postMessage({ result: judgeFiles(workerData as JudgeRequest) });
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
