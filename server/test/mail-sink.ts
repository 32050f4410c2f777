/** An SMTP server on loopback that keeps every message it accepts (the real exchange, no mock). */
import { SMTPServer } from "smtp-server";
import { freePort } from "./harness";

export interface MailSink {
  /** `smtp://127.0.0.1:<port>`, for the email.smtp_url setting. */
  url: string;
  /** Accepted messages: envelope recipients and the raw message. */
  mails: { to: string[]; raw: string }[];
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const mails: MailSink["mails"] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** Quoted-printable soft breaks and escapes undone, so long lines can be matched whole. */
export const decodedMail = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
