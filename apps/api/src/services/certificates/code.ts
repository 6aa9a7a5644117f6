import { createHash, createHmac } from "node:crypto";
import { CERTIFICATE_CODE_PATTERN, CERTIFICATE_VERIFY_PATH } from "@app/shared";

/**
 * A certificate's verification code (ADR 0116): HMAC-SHA-256 of its id under CERTIFICATE_SECRET, the
 * first 18 bytes (144 bits) as base64url. The database keeps only `codeHash(code)`; the code is made again
 * whenever the PDF is, so nobody with a copy of the database alone can print a valid QR code.
 */
export function certificateCode(secret: string, certificateId: number): string {
  return createHmac("sha256", secret)
    .update(`certificate:${certificateId}`)
    .digest()
    .subarray(0, 18)
    .toString("base64url");
}

/** sha256 (hex) of a code: what `certificates.code_hash` holds and what a verification looks up. */
export function codeHash(code: string): string {
  return createHash("sha256").update(code, "utf8").digest("hex");
}

export const isWellFormedCode = (code: string) => CERTIFICATE_CODE_PATTERN.test(code);

/** The public address of the verification page, as the QR code and the profile show it. */
export function verifyUrl(appUrl: string, code: string): string {
  return `${appUrl.replace(/\/+$/, "")}${CERTIFICATE_VERIFY_PATH}${code}`;
}
