import { CHECKOUT_CATEGORIES, type CheckoutCategory } from "./constants";

export interface CheckoutBuyer {
  email: string;
  firstname: string;
  lastname: string;
  /** the user's digistoreHash, never the database id */
  digistoreHash: string;
}

export interface CheckoutRequest {
  /** DIGISTORE_PRODUCT_URL, e.g. https://www.digistore24.com/product/ */
  productUrl: string;
  /** checkout product id: package externalId or the congress's ticket ids */
  productId: number;
  /** our id of the package or congress */
  id: number;
  category: CheckoutCategory;
  buyer: CheckoutBuyer;
  /** the package's extraParameters: voucher is passed as Digistore's voucher, crosssell keys are display-only */
  extraParameters?: Record<string, string>;
}

const DISPLAY_ONLY_KEYS = new Set(["crosssellDescription", "crosssellLink"]);
const RESERVED_KEYS = new Set(["email", "first_name", "last_name", "custom"]);

/** `uid-{hash}|pid-{id}|cat-{category}` as the spec's external checkout expects. */
export function buildCustom(digistoreHash: string, id: number, category: CheckoutCategory): string {
  return `uid-${digistoreHash}|pid-${id}|cat-${category}`;
}

/** The provider's product URL plus the product id and the buyer's data, all URL-encoded. */
export function buildCheckoutUrl(request: CheckoutRequest): string {
  const base = request.productUrl.endsWith("/") ? request.productUrl : `${request.productUrl}/`;
  const url = new URL(`${base}${encodeURIComponent(String(request.productId))}`);
  url.searchParams.set("email", request.buyer.email);
  url.searchParams.set("first_name", request.buyer.firstname);
  url.searchParams.set("last_name", request.buyer.lastname);
  url.searchParams.set("custom", buildCustom(request.buyer.digistoreHash, request.id, request.category));
  for (const [key, value] of Object.entries(request.extraParameters ?? {})) {
    if (!DISPLAY_ONLY_KEYS.has(key) && !RESERVED_KEYS.has(key) && value !== "") {
      url.searchParams.set(key, value);
    }
  }
  return url.toString();
}

export interface ParsedCustom {
  uid?: string;
  pid: number;
  cat: CheckoutCategory;
}

/**
 * Reads `custom` as sent back by the provider: the return to the overview carries `pid-..|cat-..`, the
 * payment notification also `uid-..`. Anything malformed gives null.
 */
export function parseCustom(custom: string | null | undefined): ParsedCustom | null {
  if (!custom || custom.length > 500) {
    return null;
  }
  const fields = new Map<string, string>();
  for (const part of custom.split("|")) {
    const match = part.trim().match(/^(uid|pid|cat)-(.+)$/);
    if (!match?.[1] || match[2] === undefined || fields.has(match[1])) {
      return null;
    }
    fields.set(match[1], match[2]);
  }
  const pid = Number(fields.get("pid"));
  const cat = fields.get("cat");
  const uid = fields.get("uid");
  if (!Number.isSafeInteger(pid) || pid <= 0 || !CHECKOUT_CATEGORIES.includes(cat as CheckoutCategory)) {
    return null;
  }
  if (uid !== undefined && !/^[A-Za-z0-9-]{1,64}$/.test(uid)) {
    return null;
  }
  return { pid, cat: cat as CheckoutCategory, ...(uid !== undefined && { uid }) };
}
