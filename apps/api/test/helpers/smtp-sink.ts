import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server, in-process, on loopback: the app's nodemailer transport talks real
// SMTP to it, and tests read what arrived. Plain SMTP, no TLS, no auth (stack-notes.md).

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message: headers, a blank line, the body. */
  raw: string;
  /** Header lines, unfolded, by lower-case name. */
  headers: Record<string, string>;
  /** The body, with quoted-printable soft breaks and escapes decoded. */
  body: string;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** Resolves once `count` messages have arrived (rejects after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /**
   * Resolves with the first message from index `after` on that `match` accepts (rejects
   * after timeoutMs): a test's own mail, whatever else other tests' deliveries bring meanwhile.
   */
  waitForMail(match: (mail: ReceivedMail) => boolean, after?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { from, to, raw, headers, body: body.replace(/\r\n/g, '\n') };
}

/**
 * `port` 0 (default) takes a free one; a fault test gives the port a mail server was missing on.
 * `rejectRecipient`, asked at each RCPT TO, makes the server refuse that address with a 550,
 * as a real one refuses an unknown mailbox: the message then fails for real.
 */
export async function startSmtpSink(port = 0, opts: { rejectRecipient?: (address: string) => boolean } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.rejectRecipient?.(address.address)) {
        const err = Object.assign(new Error(`Mailbox unavailable: ${address.address}`), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  const waitFor = async (count: number, timeoutMs = 5_000): Promise<ReceivedMail[]> => {
    const deadline = Date.now() + timeoutMs;
    while (mails.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} mails, got ${mails.length}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return mails;
  };
  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    waitFor,
    async waitForMail(match, after = 0, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.slice(after).find(match);
        if (found) return found;
        await waitFor(mails.length + 1, Math.max(1, deadline - Date.now())).catch(() => {
          throw new Error(`no matching mail within ${timeoutMs} ms (${mails.length - after} others arrived)`);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
