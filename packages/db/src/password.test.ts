import { afterEach, describe, expect, it, vi } from "vitest";

// Every call is held until the test lets it finish, so how many run at once can be counted.
const calls = vi.hoisted(() => ({ inFlight: 0, most: 0, release: [] as Array<() => void> }));
const held = <T>(value: T) =>
  new Promise<T>((done) => {
    calls.inFlight += 1;
    calls.most = Math.max(calls.most, calls.inFlight);
    calls.release.push(() => {
      calls.inFlight -= 1;
      done(value);
    });
  });

vi.mock("node:os", async (original) => ({
  ...(await original<typeof import("node:os")>()),
  availableParallelism: () => 3,
}));
vi.mock("@node-rs/argon2", () => ({
  hash: vi.fn(() => held("$argon2id$hash")),
  verify: vi.fn(() => held(true)),
}));

const { HASHES_AT_ONCE, hashPassword, verifyPassword } = await import("./password");

/** Lets the running calls finish, one round at a time, until none is left. */
async function drain(): Promise<void> {
  for (let round = 0; round < 100 && (calls.release.length > 0 || calls.inFlight > 0); round++) {
    for (const release of calls.release.splice(0)) {
      release();
    }
    await new Promise((done) => setImmediate(done));
  }
}

describe("argon2 hashes at once", () => {
  afterEach(() => {
    calls.most = 0;
  });

  it("runs at most one hash per core, the others in line", async () => {
    expect(HASHES_AT_ONCE).toBe(3);
    const results = Promise.all([
      ...Array.from({ length: 5 }, () => hashPassword("geheim")),
      ...Array.from({ length: 5 }, () => verifyPassword("$argon2id$hash", "geheim")),
    ]);
    await new Promise((done) => setImmediate(done));
    expect(calls.inFlight).toBe(3);
    await drain();
    expect(await results).toEqual([...Array(5).fill("$argon2id$hash"), ...Array(5).fill(true)]);
    expect(calls.most).toBe(3);
  });

  it("frees the slot of a failed verify", async () => {
    const { verify } = await import("@node-rs/argon2");
    vi.mocked(verify).mockImplementationOnce(() =>
      held(true).then(() => Promise.reject(new Error("not an argon2 hash"))),
    );
    const results = Promise.all(Array.from({ length: 7 }, () => verifyPassword("kaputt", "geheim")));
    await drain();
    expect(await results).toEqual([false, ...Array(6).fill(true)]);
    expect(calls.most).toBe(3);
    expect(calls.inFlight).toBe(0);
  });
});
