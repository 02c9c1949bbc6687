import { Trans, useT } from '../../lib/i18n.tsx';

/** "Hotline 16770" as one sentence, its number a tel: link in the page's digits (footer, contact page). */
export function HotlineText({ hotline, linkClassName }: { hotline: string; linkClassName: string }) {
  const { digits } = useT();
  return (
    <Trans
      id="Hotline <0>{hotline}</0>"
      values={{ hotline: digits(hotline) }}
      components={{
        0: (
          <a className={linkClassName} href={`tel:${hotline}`}>
            {hotline}
          </a>
        ),
      }}
    />
  );
}
