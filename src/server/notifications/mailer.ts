import type { Transporter } from 'nodemailer';
import type { MailSettings } from '../config/config';

export interface Email {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text`, already escaped. */
  html?: string;
  headers?: Record<string, string>;
}

/** Sends email through the SMTP server of `SMTP_URL` (nodemailer); absent when none is configured. */
export class Mailer {
  /** nodemailer is loaded at the first email, not at start (decision 028: idle memory). */
  private transport: Promise<Transporter> | undefined;

  constructor(private readonly settings: MailSettings) {}

  /** `PUBLIC_URL`: the base of every link in an email, which therefore never comes from a request. */
  get publicUrl(): string {
    return this.settings.publicUrl;
  }

  async send(email: Email): Promise<void> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(this.settings.smtpUrl),
    );
    await (
      await this.transport
    ).sendMail({
      from: this.settings.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      ...(email.html === undefined ? {} : { html: email.html }),
      ...(email.headers === undefined ? {} : { headers: email.headers }),
    });
  }

  close(): void {
    this.transport?.then(
      (transport) => transport.close(),
      () => undefined, // nodemailer never loaded: nothing to close
    );
  }
}
