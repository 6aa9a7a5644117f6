/** Polls `check` until it holds; fails after `timeoutMs` with `what` (evaluated then) in the message. */
export async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
  what: string | (() => string) = "condition",
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) {
      throw new Error(`${typeof what === "function" ? what() : what} not met within ${timeoutMs} ms`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
