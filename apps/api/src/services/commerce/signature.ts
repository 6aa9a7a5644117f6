import { createHash, timingSafeEqual } from "node:crypto";

/** Digistore24's IPN signature (`sha_sign`); ADR 0025 holds the rules we rely on. */
export function digistoreSignature(
  fields: Record<string, string>,
  passphrase: string,
  options: { uppercaseKeys?: boolean } = {},
): string {
  const entries = Object.entries(fields)
    .filter(([key, value]) => key !== "sha_sign" && key !== "SHASIGN" && value !== "")
    .map(([key, value]) => [options.uppercaseKeys ? key.toUpperCase() : key, value] as const)
    // plain byte order of the UTF-8 keys, not the locale's
    .sort(([a], [b]) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
  const text = entries.map(([key, value]) => `${key}=${value}${passphrase}`).join("");
  return createHash("sha512").update(text, "utf8").digest("hex").toUpperCase();
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a.toUpperCase(), "utf8");
  const right = Buffer.from(b.toUpperCase(), "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether the notification carries a valid signature, in either key variant; compared in constant time. */
export function verifyDigistoreSignature(fields: Record<string, string>, passphrase: string): boolean {
  const given = fields.sha_sign ?? fields.SHASIGN ?? "";
  if (given === "" || passphrase === "") {
    return false;
  }
  const plain = sameHex(given, digistoreSignature(fields, passphrase));
  const upper = sameHex(given, digistoreSignature(fields, passphrase, { uppercaseKeys: true }));
  return plain || upper;
}
