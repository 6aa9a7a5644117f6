import { hash, randomFillSync, timingSafeEqual } from "node:crypto";

/**
 * Random bytes from the system's CSPRNG, drawn 4 KiB at a time and handed out once each, as Node's own
 * `randomUUID` does: one call into OpenSSL's generator per 4 KiB instead of one per token, which on a busy
 * sign-in path cost more than the token's other work (docs/performance.md, "Login budget").
 */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let offset = POOL_BYTES;

export function randomBytesPooled(size: number): Buffer {
  if (size > POOL_BYTES) {
    throw new RangeError(`at most ${POOL_BYTES} bytes at a time`);
  }
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  // a copy: the pool is filled again in place, and a handed-out token must not change with it
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  pool.fill(0, offset, offset + size);
  offset += size;
  return bytes;
}

/** An opaque, unguessable token (256 bits) for links and refresh tokens. */
export function newToken(): string {
  return randomBytesPooled(32).toString("base64url");
}

/** Tokens are stored only as their SHA-256; a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash("sha256", a, "buffer"), hash("sha256", b, "buffer"));
}
