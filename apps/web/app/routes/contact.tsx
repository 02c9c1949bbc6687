import { Link, useRouteLoaderData } from 'react-router';
import { ContactForm } from '../components/contact/contact-form.tsx';
import { MailIcon, PhoneIcon } from '../components/ui/icons.tsx';
import { metaT, Trans, useT } from '../lib/i18n.tsx';
import { brandName, type SiteSettings } from '../lib/site.ts';
import type { Route } from './+types/contact';
import { inLanguage } from '../lib/seo.ts';
import { HotlineText } from '../components/layout/hotline-text.tsx';

type RootData = { settings?: SiteSettings; publicUrl?: string };

export function meta({ matches }: Route.MetaArgs) {
  const root = (matches[0]?.data ?? {}) as RootData;
  const brand = brandName(root.settings ?? {});
  const { t, lang } = metaT(matches);
  const description = t('Write to {brand}: questions about products, delivery, orders and showrooms.', { brand });
  return [
    { title: t('Contact us — {brand}', { brand }) },
    { name: 'description', content: description },
    ...(root.publicUrl ? [{ tagName: 'link', rel: 'canonical', href: inLanguage(`${root.publicUrl}/contact`, lang) }] : []),
  ];
}

/** /contact (spec §2): the contact form, with the other ways to reach the shop beside it. */
export default function ContactPage() {
  const settings = useRouteLoaderData<RootData>('root')?.settings ?? {};
  const hotline = settings['contact.hotline'];
  const intl = settings['contact.hotlineInternational'];
  const email = settings['contact.supportEmail'];
  const { t, digits } = useT();
  return (
    <div className="container-page py-10 md:py-14">
      <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{t('Contact us')}</h1>
      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <section className="rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)] md:p-8">
          <ContactForm />
        </section>
        <aside aria-labelledby="other-ways" className="space-y-4">
          <h2 id="other-ways" className="text-lg font-semibold">
            {t('Other ways to reach us')}
          </h2>
          <ul className="space-y-3 text-ink">
            {hotline && (
              <li className="flex items-center gap-3">
                <PhoneIcon width={20} height={20} className="text-brand-700" />
                <span>
                  <HotlineText hotline={hotline} linkClassName="font-semibold text-brand-700 underline-offset-2 hover:underline" />
                </span>
              </li>
            )}
            {intl && (
              <li className="flex items-center gap-3">
                <PhoneIcon width={20} height={20} className="text-brand-700" />
                <span>
                  <Trans
                    id="International <0>{phone}</0>"
                    values={{ phone: digits(intl) }}
                    components={{
                      0: (
                        <a className="font-semibold text-brand-700 underline-offset-2 hover:underline" href={`tel:${intl.replace(/\s+/g, '')}`}>
                          {intl}
                        </a>
                      ),
                    }}
                  />
                </span>
              </li>
            )}
            {email && (
              <li className="flex items-center gap-3">
                <MailIcon width={20} height={20} className="text-brand-700" />
                <a className="break-all font-semibold text-brand-700 underline-offset-2 hover:underline" href={`mailto:${email}`}>
                  {email}
                </a>
              </li>
            )}
          </ul>
          <p className="text-ink-muted">
            <Trans
              id="Prefer to see the furniture first? <0>Visit one of our showrooms</0>."
              components={{ 0: <Link to="/outlets" className="font-semibold text-brand-700 underline-offset-2 hover:underline" /> }}
            />
          </p>
        </aside>
      </div>
    </div>
  );
}
