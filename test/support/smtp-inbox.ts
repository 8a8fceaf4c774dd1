import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { WAIT_MS } from './poll';

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it receives,
 * parsed, so a test reads the email the app sent exactly as a mail server got it.
 */
export class SmtpInbox {
  readonly messages: ParsedMail[] = [];
  private waiters: (() => void)[] = [];
  private readonly server: SMTPServer;

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.messages.push(mail);
            for (const waiter of [...this.waiters]) waiter();
            callback();
          })
          .catch((error: unknown) => callback(error as Error));
      },
    });
  }

  static async start(): Promise<SmtpInbox> {
    const inbox = new SmtpInbox();
    await new Promise<void>((resolve, reject) => {
      inbox.server.once('error', reject);
      inbox.server.listen(0, '127.0.0.1', () => resolve());
    });
    return inbox;
  }

  get url(): string {
    const address = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${address.port}`;
  }

  /** The first message to `address`, waiting for it to arrive (event-driven, with a timeout). */
  messageTo(address: string, timeoutMs = WAIT_MS): Promise<ParsedMail> {
    const find = () =>
      this.messages.find((mail) =>
        [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === address)),
      );
    return new Promise((resolve, reject) => {
      const check = () => {
        const mail = find();
        if (!mail) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((waiter) => waiter !== check);
        resolve(mail);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== check);
        reject(new Error(`no email to ${address} within ${timeoutMs} ms (got ${this.messages.length})`));
      }, timeoutMs);
      this.waiters.push(check);
      check();
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
