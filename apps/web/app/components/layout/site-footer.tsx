import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { Trans, useT } from '../../lib/i18n.tsx';
import { SupportEmailLink } from '../contact/support-email-link.tsx';
import { brandName, list, SOCIAL, type SiteSettings, type Social } from '../../lib/site.ts';
import { ChevronDownIcon, FacebookIcon, InstagramIcon, LinkedinIcon, MailIcon, PhoneIcon, YoutubeIcon } from '../ui/icons.tsx';
import { Logo, logoImage } from './logo.tsx';
import { HotlineText } from './hotline-text.tsx';

type FooterLink = { label: string; to: string };

// spec §2, footer links (titles and labels are message ids, shown through t()); "Delivery and Shipping Information" opens a real page (decisions.md).
const COLUMNS: { title: string; links: FooterLink[] }[] = [
  {
    title: 'About Us',
    links: [
      { label: 'About Us', to: '/about' },
      { label: 'Contact Us', to: '/contact' },
      { label: 'Our Showroom', to: '/outlets' },
      { label: 'Product Catalog', to: '/shop' },
    ],
  },
  {
    title: 'Our Company',
    links: [
      { label: 'Company Profile', to: '/coming-soon' },
      { label: 'License and Certificates', to: '/coming-soon' },
      { label: 'Career', to: '/coming-soon' },
      { label: 'Press', to: '/coming-soon' },
    ],
  },
  {
    title: 'Customer Service',
    links: [
      { label: 'Terms and Conditions', to: '/terms-conditions' },
      { label: 'Privacy Policy', to: '/privacy-policy' },
      { label: 'Return and Refund Policy', to: '/return' },
      { label: 'Delivery and Shipping Information', to: '/delivery-shipping' },
    ],
  },
];

const SOCIAL_ICONS: Record<Social, { icon: ReactNode; label: string }> = {
  facebook: { icon: <FacebookIcon />, label: 'Facebook' },
  instagram: { icon: <InstagramIcon />, label: 'Instagram' },
  youtube: { icon: <YoutubeIcon />, label: 'YouTube' },
  linkedin: { icon: <LinkedinIcon />, label: 'LinkedIn' },
};

function LinkList({ links }: { links: FooterLink[] }) {
  const { t } = useT();
  return (
    <ul className="space-y-2.5">
      {links.map((l) => (
        <li key={l.label}>
          <Link to={l.to} className="text-sand-200 hover:text-white hover:underline">
            {t(l.label)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function FollowUs({ settings }: { settings: SiteSettings }) {
  const hotline = settings['contact.hotline'];
  const intl = settings['contact.hotlineInternational'];
  const email = settings['contact.supportEmail'];
  const { t, digits } = useT();
  return (
    <div className="space-y-4">
      <ul className="flex gap-2">
        {SOCIAL.filter((s) => settings[`social.${s}`]).map((s) => (
          <li key={s}>
            <a
              href={settings[`social.${s}`]}
              rel="noopener noreferrer"
              target="_blank"
              aria-label={t(SOCIAL_ICONS[s].label)}
              className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20"
            >
              {SOCIAL_ICONS[s].icon}
            </a>
          </li>
        ))}
      </ul>
      <ul className="space-y-2 text-sand-200">
        {hotline && (
          <li className="flex items-center gap-2">
            <PhoneIcon width={18} height={18} />
            <span>
              <HotlineText hotline={hotline} linkClassName="font-semibold text-white hover:underline" />
            </span>
          </li>
        )}
        {intl && (
          <li className="flex items-center gap-2">
            <PhoneIcon width={18} height={18} />
            <span>
              <Trans
                id="International <0>{phone}</0>"
                values={{ phone: digits(intl) }}
                components={{
                  0: (
                    <a className="font-semibold text-white hover:underline" href={`tel:${intl.replace(/\s+/g, '')}`}>
                      {intl}
                    </a>
                  ),
                }}
              />
            </span>
          </li>
        )}
        {email && (
          <li className="flex items-center gap-2">
            <MailIcon width={18} height={18} />
            <SupportEmailLink className="font-semibold text-white hover:underline" email={email} />
          </li>
        )}
      </ul>
    </div>
  );
}

export function SiteFooter({ settings }: { settings: SiteSettings }) {
  const brand = brandName(settings);
  const year = new Date().getFullYear();
  const registrations = [settings['company.tin'], settings['company.bin'], settings['company.tradeLicence']].filter(Boolean);
  const { t, digits } = useT();
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-labelledby is global in WAI-ARIA; it names the contentinfo landmark.
    <footer className="mt-16 bg-brand-800 text-sm text-white" aria-labelledby="footer-heading">
      <h2 id="footer-heading" className="sr-only">
        {t('Footer')}
      </h2>
      <div className="container-page py-10 md:py-12">
        <div className="mb-8 flex items-center gap-2">
          <Logo name={brand} inverted image={logoImage(settings)} />
        </div>

        {/* One set of groups: an accordion on a phone, four columns from lg (rendered once, not once per layout). */}
        <div className="divide-y divide-white/15 border-y border-white/15 lg:grid lg:grid-cols-4 lg:gap-8 lg:divide-y-0 lg:border-0">
          {[
            ...COLUMNS.map((c) => ({ title: t(c.title), body: <LinkList links={c.links} /> })),
            { title: t('Follow Us'), body: <FollowUs settings={settings} /> },
          ].map((g) => (
            <FooterGroup key={g.title} title={g.title}>
              {g.body}
            </FooterGroup>
          ))}
        </div>

        <div className="mt-10 flex flex-col gap-6 border-t border-white/15 pt-8 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <p className="mb-2 text-sand-200">{t('We accept')}</p>
            {/* The payment brands' own names (bKash, Visa…), in every language. */}
            <ul className="flex flex-wrap gap-2" translate="no">
              {list(settings['payment.logos']).map((name) => (
                <li key={name}>
                  <img src={`/media/badges/${name}.svg`} alt={name} width={80} height={40} loading="lazy" className="h-8 w-16 rounded bg-white" />
                </li>
              ))}
            </ul>
          </div>
          {settings['payment.sslLogo'] && (
            <img
              src={`/media/badges/${settings['payment.sslLogo']}.svg`}
              alt={t('Secure payment by SSLCOMMERZ')}
              width={220}
              height={40}
              loading="lazy"
              className="h-10 w-[220px] rounded bg-white"
            />
          )}
        </div>
        <div className="mt-8 flex flex-col gap-2 text-sand-200 md:flex-row md:items-center md:justify-between">
          <p>
            <Trans
              id="© {year} <0>{brand}</0>. All rights reserved."
              values={{ year: digits(String(year)), brand }}
              components={{ 0: <span translate="no" /> }}
            />
          </p>
          {/* Registration numbers as the authorities issued them (legal identifiers, not text to translate). */}
          {registrations.length > 0 && (
            <p className="text-xs" translate="no">
              {registrations.join(' · ')}
            </p>
          )}
        </div>
      </div>
    </footer>
  );
}

/**
 * One footer group: on a phone a disclosure (a button that shows and hides its links), the
 * WAI pattern for this, with no menu library in every page's first load (decision 0030);
 * from lg a column with its heading, always open.
 */
function FooterGroup({ title, children }: { title: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <section aria-label={title}>
      <h3 className="text-base font-semibold lg:mb-4">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
          data-state={open ? 'open' : 'closed'}
          className="group flex w-full items-center justify-between py-4 text-left lg:hidden"
        >
          {title}
          <ChevronDownIcon className="transition-transform group-data-[state=open]:rotate-180" />
        </button>
        <span className="hidden lg:inline">{title}</span>
      </h3>
      {/* A class, not the hidden attribute: the base styles' [hidden] rule would win over lg:block. */}
      <div id={id} className={`pb-4 lg:block lg:pb-0 ${open ? '' : 'hidden'}`}>
        {children}
      </div>
    </section>
  );
}
