import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  attachments: Array<{ filename: string; contentType: string; content: string; data: Buffer }>;
}

/** A real SMTP server in the test process; mails are parsed and kept in `mails`. Can be stopped and restarted. */
export class TestSmtpServer {
  readonly mails: CapturedMail[] = [];
  private server: SMTPServer | undefined;
  private waiters: Array<() => void> = [];
  port = 0;
  /** recipients the server refuses (550), for delivery failures */
  readonly refuse = new Set<string>();

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refuse.has(address.address.toLowerCase())) {
          callback(
            Object.assign(new Error(`<${address.address}>: Recipient address rejected`), {
              responseCode: 550,
            }),
          );
          return;
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed: ParsedMail) => {
            const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
            this.mails.push({
              to: to ?? "",
              subject: parsed.subject ?? "",
              html: typeof parsed.html === "string" ? parsed.html : "",
              text: parsed.text ?? "",
              messageId: parsed.messageId ?? "",
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename ?? "",
                contentType: a.contentType,
                content: a.content.toString("utf8"),
                data: a.content,
              })),
            });
            for (const wake of this.waiters.splice(0)) {
              wake();
            }
            callback();
          })
          .catch(callback);
      },
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const address = server.server.address();
    this.port = typeof address === "object" && address ? address.port : port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  /** Waits until a mail matching `predicate` arrived (or fails after `timeoutMs`). */
  async waitFor(predicate: (mail: CapturedMail) => boolean, timeoutMs = 15_000): Promise<CapturedMail> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.find(predicate);
      if (found) {
        return found;
      }
      const left = until - Date.now();
      if (left <= 0) {
        throw new Error(
          `no matching mail within ${timeoutMs} ms (received: ${this.mails.map((m) => m.subject).join(", ")})`,
        );
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, Math.min(left, 250));
      });
    }
  }
}
