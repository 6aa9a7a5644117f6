/** Business constants of spec section 9. */

/** ids are PostgreSQL integers: anything above 2^31 - 1 is refused before it reaches the database */
export const MAX_ID = 2_147_483_647;

export const ROLES = ["ROLE_USER", "ROLE_ADMIN"] as const;
export type Role = (typeof ROLES)[number];

export const CHECKOUT_CATEGORIES = ["pac", "tic", "ticpac"] as const;
export type CheckoutCategory = (typeof CHECKOUT_CATEGORIES)[number];

export const CONTENT_TYPES = ["vimeo", "vimeo-url"] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
export const DEFAULT_CONTENT_TYPE: ContentType = "vimeo-url";

/** The spec's two values; payment notifications may record others, which the product never shows as a status. */
export const ORDER_STATUSES = ["paid", "canceled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = { paid: "bezahlt", canceled: "storniert" };

export const DIALOG_MODES = ["normal", "success", "error", "info", "question"] as const;
export type DialogMode = (typeof DIALOG_MODES)[number];

export const OVERVIEW_MAX_CONGRESSES = 6;
export const OVERVIEW_MAX_PACKAGES = 8;
export const OVERVIEW_DESCRIPTION_CUT = 100;
export const ADMIN_DESCRIPTION_CUT = 30;
/** rows of every server-paged admin table (spec: "Admin tables: 10 rows per page") */
export const ADMIN_PAGE_SIZE = 10;
export const MIN_PASSWORD_LENGTH = 8;
export const ACCESS_TOKEN_LIFETIME_MS = 2_000_000;
export const ALERT_DURATION_MS = 5000;
export const FAKE_ORDER_NUMBER = "FAKE-ORDER";
export const TIME_ZONE = "Europe/Berlin";
export const LOCALE = "de-DE";

/** Package ids of the two password-gated pages (spec section 2). */
export const GATED_PACKAGE_COUPLE_THERAPY_ID = 1;
export const GATED_PACKAGE_DEATH_CONGRESS_ID = 3;
/** Default activation of the death-congress page: 28 September 2023 00:00 Berlin time. */
export const DEATH_CONGRESS_ACTIVE_FROM = "2023-09-28T00:00:00+02:00";

/**
 * The longest text each search field of the administration's tables takes: the server's schema refuses
 * more, the section's address drops more, and the field says so and keeps what was typed.
 */
export const SEARCH_MAX = {
  userName: 200,
  userEmail: 254,
  contents: 200,
  orders: 254,
  notificationOrder: 100,
  notificationEmail: 254,
} as const;
