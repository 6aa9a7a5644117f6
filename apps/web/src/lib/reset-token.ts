/**
 * sessionStorage key of a validated reset token (spec section 4, password reset): set by the mailed link's
 * route, read by the new-password form. Its own module, so the link's route (part of the first page's
 * route tree) does not pull the form in.
 */
export const RESET_TOKEN_KEY = "resetPasswordToken";
