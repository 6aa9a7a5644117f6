import { describe, expect, it, vi } from "vitest";
import { createSessionManager, type IssuedSession } from "./session-manager";

const user = {
  id: 1,
  email: "a@example.com",
  firstname: "A",
  lastname: "B",
  roles: ["ROLE_USER" as const],
  newsletter: false,
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("session manager", () => {
  it("shares one refresh request among all callers waiting for an expired token", async () => {
    let clock = 1_000_000;
    const pending = deferred<IssuedSession>();
    const refresh = vi.fn(() => pending.promise);
    const manager = createSessionManager({ refresh, now: () => clock });
    manager.signIn({ token: "old", expiresAt: clock + 60_000, user });
    expect(await manager.getToken()).toBe("old");

    clock += 60_000; // expired
    const waiting = Promise.all([
      manager.getToken(),
      manager.getToken(),
      manager.getToken(),
      manager.getToken(),
    ]);
    pending.resolve({ token: "new", expiresAt: clock + 2_000_000, user });
    expect(await waiting).toEqual(["new", "new", "new", "new"]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(manager.getState().token).toBe("new");

    expect(await manager.getToken()).toBe("new");
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("logs out everyone waiting when the refresh fails; later calls stay anonymous until a restore", async () => {
    const refresh = vi.fn().mockRejectedValueOnce(new Error("401"));
    const manager = createSessionManager({ refresh });
    manager.signIn({ token: "old", expiresAt: 0, user });
    const seen: Array<string | null> = [];
    manager.subscribe(() => seen.push(manager.getState().token));

    expect(await Promise.all([manager.getToken(), manager.getToken()])).toEqual([null, null]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(manager.getState()).toEqual({ token: null, expiresAt: null, user: null });
    expect(seen).toEqual([null]);

    expect(await manager.getToken()).toBeNull();
    expect(refresh).toHaveBeenCalledTimes(1);
    refresh.mockResolvedValueOnce({ token: "again", expiresAt: Date.now() + 2_000_000, user });
    expect(await manager.restore()).toBe("again");
    expect(await manager.getToken()).toBe("again");
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("makes no request for anonymous visitors but lets them wait for a restore under way", async () => {
    const pending = deferred<IssuedSession>();
    const refresh = vi.fn(() => pending.promise);
    const manager = createSessionManager({ refresh });
    expect(await manager.getToken()).toBeNull();
    expect(refresh).not.toHaveBeenCalled();

    const restoring = manager.restore();
    const waiting = manager.getToken();
    pending.resolve({ token: "restored", expiresAt: Date.now() + 2_000_000, user });
    expect(await waiting).toBe("restored");
    expect(await restoring).toBe("restored");
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("renews shortly before expiry rather than sending a token about to expire", async () => {
    const clock = 5_000_000;
    const refresh = vi.fn(async () => ({ token: "renewed", expiresAt: clock + 2_000_000, user }));
    const manager = createSessionManager({ refresh, now: () => clock, skewMs: 30_000 });
    manager.signIn({ token: "almost", expiresAt: clock + 10_000, user });
    expect(await manager.getToken()).toBe("renewed");
  });
});
