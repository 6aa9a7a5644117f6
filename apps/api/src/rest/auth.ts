import type { RestInput, RestRoute } from "./adapter";
import { jsonField, readForm } from "./form";

const body = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The account paths of spec section 7, mapped onto the auth procedures. */
export const authRestRoutes: RestRoute[] = [
  {
    method: "POST",
    url: "/auth/login",
    role: "public",
    handler: async (caller, req) => {
      const form = await readForm(req);
      return caller.auth.login({ email: form.fields.email ?? "", password: form.fields.password ?? "" });
    },
  },
  {
    // the second step of a login with two-factor authentication: the challenge of /auth/login and a code
    method: "POST",
    url: "/auth/login/two-factor",
    role: "public",
    handler: async (caller, req) => {
      const form = await readForm(req);
      return caller.auth.loginTwoFactor({
        challenge: form.fields.challenge ?? "",
        code: form.fields.code ?? "",
      });
    },
  },
  {
    method: "POST",
    url: "/auth/token/refresh",
    role: "public",
    handler: (caller, req) => caller.auth.refresh(body(req.body)),
  },
  {
    method: "POST",
    url: "/auth/logout",
    role: "public",
    handler: (caller, req) => caller.auth.logout(body(req.body)),
  },
  {
    method: "POST",
    url: "/register",
    role: "public",
    status: 201,
    handler: async (caller, req) => {
      const form = await readForm(req);
      // congressId and showVideo come as plain form fields, any text: the procedure's schema checks them
      const user = jsonField<Record<string, unknown>>(form, "user");
      return caller.auth.register({
        ...user,
        congressId: form.fields.congressId || undefined,
        showVideo: form.fields.showVideo || undefined,
      } as RestInput["auth"]["register"]);
    },
  },
  {
    method: "POST",
    url: "/register/resend",
    role: "public",
    handler: async (caller, req) =>
      caller.auth.resendConfirmation({ email: (await readForm(req)).fields.email ?? "" }),
  },
  {
    method: "POST",
    url: "/confirm-mail",
    role: "public",
    handler: async (caller, req) => {
      const { fields } = await readForm(req);
      return caller.auth.confirmMail({ userId: fields.userId, hash: fields.hash ?? "" });
    },
  },
  {
    method: "POST",
    url: "/auth/resetPassword",
    role: "public",
    handler: (caller, req) => caller.auth.requestPasswordReset({ email: String(body(req.body).email ?? "") }),
  },
  {
    method: "GET",
    url: "/auth/resetPassword/validate/:token",
    role: "public",
    handler: (caller, req) => caller.auth.validateResetToken({ token: req.params.token ?? "" }),
  },
  {
    method: "POST",
    url: "/auth/resetPassword/reset/:token",
    role: "public",
    handler: (caller, req) => {
      const { password, passwordConfirm } = body(req.body);
      return caller.auth.resetPassword({
        token: req.params.token ?? "",
        password: String(password ?? ""),
        passwordConfirm: String(passwordConfirm ?? ""),
      });
    },
  },
  {
    method: "POST",
    url: "/migration/set-password",
    role: "public",
    handler: async (caller, req) => {
      const { fields } = await readForm(req);
      return caller.auth.setMigrationPassword({
        userId: fields.userId,
        hash: fields.hash ?? "",
        password: fields.password ?? "",
        passwordConfirm: fields.passwordConfirm,
      });
    },
  },
];
