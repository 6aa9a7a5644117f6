import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  messageId: string;
}

/**
 * A real SMTP server that takes `delayMs` to accept each message, so a mail job can be caught in the
 * middle of its delivery. A mail counts as received once the server has answered 250.
 */
export class SlowSmtpServer {
  readonly mails: ReceivedMail[] = [];
  /** messages whose DATA has started arriving (accepted or not) */
  receiving = 0;
  port = 0;
  private server: SMTPServer | undefined;

  constructor(public delayMs: number) {}

  async start(): Promise<void> {
    const server = new SMTPServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, _session, callback) => {
        this.receiving += 1;
        simpleParser(stream)
          .then(async (parsed) => {
            await new Promise((done) => setTimeout(done, this.delayMs));
            const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
            this.mails.push({ to: to ?? "", messageId: parsed.messageId ?? "" });
            callback();
          })
          .catch(callback);
      },
    });
    this.server = server;
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const address = server.server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) {
      await new Promise<void>((done) => server.close(() => done()));
    }
  }
}
