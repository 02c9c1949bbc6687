import type { Locale } from '@storefront/shared';
import { serverT } from '@storefront/shared/i18n/server';
import type { MailMessage } from '../mail/mailer.ts';

/**
 * The password-reset mail, in the language the shopper asked in (or their account's:
 * docs/decisions/0038). A Bangla one links to the Bangla reset page.
 */
export function passwordResetMail(to: { email: string; name: string }, publicUrl: string, token: string, locale: Locale): MailMessage {
  const t = serverT(locale);
  const link = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}${locale === 'en' ? '' : `&lang=${locale}`}`;
  return {
    to: to.email,
    subject: t('Reset your password'),
    text: [
      t('Hello {name},', { name: to.name }),
      '',
      t('Someone (we hope you) asked to reset the password of your account.'),
      t('Open this link within one hour to choose a new password:'),
      '',
      link,
      '',
      t('If you did not ask for this, ignore this mail: your password stays as it is.'),
    ].join('\n'),
  };
}
