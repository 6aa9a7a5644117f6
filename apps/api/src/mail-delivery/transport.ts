import nodemailer, { type Transporter } from "nodemailer";

/** SMTP transport from `SMTP_URL` (e.g. smtp://user:pass@host:587); failures surface as job retries. */
export function createMailTransport(smtpUrl: string): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}
