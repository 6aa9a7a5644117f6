import { setTimeout as sleep } from "node:timers/promises";

export type IpnUrlCheck =
  | { ok: true; status: number }
  /** status null: the URL never answered (or the simulator stopped first) */
  | { ok: false; status: number | null; detail: string };

export interface SimulatorLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Digistore24 validates an IPN URL with a plain GET when it is saved and wants 200 `OK`. In `pnpm dev` and
 * the end-to-end tests the simulator starts before the API, so connection errors are retried until
 * `timeoutMs`; any answer is final. Never rejects: the outcome is logged and returned.
 */
export async function checkIpnUrl(
  url: string,
  options: { timeoutMs: number; intervalMs: number; signal: AbortSignal; log: SimulatorLog },
): Promise<IpnUrlCheck> {
  const { signal, log } = options;
  const deadline = Date.now() + options.timeoutMs;
  let lastError = "";
  while (!signal.aborted) {
    try {
      const response = await fetch(url, {
        method: "GET",
        // a redirect fails the validation like any other answer but 200 OK
        redirect: "manual",
        signal: AbortSignal.any([signal, AbortSignal.timeout(5_000)]),
      });
      const body = (await response.text()).trim();
      if (response.status === 200 && body.startsWith("OK")) {
        log.info(`IPN-URL ${url} geprüft: 200 OK`);
        return { ok: true, status: 200 };
      }
      const detail = `${response.status} ${body.slice(0, 100)}`.trim();
      log.warn(`IPN-URL ${url} antwortet auf GET nicht mit 200 OK, sondern ${detail}`);
      return { ok: false, status: response.status, detail };
    } catch (error) {
      if (signal.aborted) {
        break;
      }
      lastError =
        error instanceof Error ? `${error.message} ${String(error.cause ?? "")}`.trim() : String(error);
    }
    if (Date.now() + options.intervalMs > deadline) {
      const seconds = Math.round(options.timeoutMs / 1000);
      log.warn(`IPN-URL ${url} nach ${seconds} s nicht erreichbar: ${lastError}`);
      return { ok: false, status: null, detail: lastError };
    }
    await sleep(options.intervalMs, undefined, { signal }).catch(() => undefined);
  }
  return { ok: false, status: null, detail: "simulator stopped" };
}
