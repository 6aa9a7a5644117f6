import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/** An opaque, unguessable token (256 bits) for links and refresh tokens. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are stored only as their SHA-256; a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash("sha256", a, "buffer"), hash("sha256", b, "buffer"));
}
