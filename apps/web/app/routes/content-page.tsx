import { data } from 'react-router';
import { RichText } from '../components/content/rich-text.tsx';
import { pageRead } from '../lib/api.server.ts';
import type { Route } from './+types/content-page';
import { localeOfMatches } from '../lib/i18n.tsx';
import { inLanguage } from '../lib/seo.ts';

type ContentItem = { title: string; slug: string; body: string; updatedAt: string };

// Site pages (about, policies, coming soon, delivery) are CMS content, by slug = path.
export async function loader({ request, context }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.replace(/^\/|\/$/g, '');
  const page = await pageRead(() =>
    context.reads.content({
      page: 1,
      size: 1,
      textParams: [
        { field: 'type', value: 'page', matchType: 'EXACT' },
        { field: 'slug', value: slug, matchType: 'EXACT' },
      ],
    }),
  );
  const found = page.list[0];
  const item: ContentItem | undefined = found && { title: found.title, slug: found.slug, body: found.body, updatedAt: found.updatedAt };
  if (!item) throw data({ message: `Page not found: /${slug}`, path: `/${slug}` }, { status: 404 });
  return { item, canonical: `${context.publicUrl}/${slug}` };
}

export function meta({ data, matches }: Route.MetaArgs) {
  if (!data) return [];
  const canonical = inLanguage(data.canonical, localeOfMatches(matches));
  // The first line as plain words: no heading marks, bold marks or link addresses.
  const description = (data.item.body.split('\n').find((l) => l.trim()) ?? '')
    .replace(/^#+\s*|^-\s+/, '')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .slice(0, 160);
  return [
    { title: data.item.title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { property: 'og:title', content: data.item.title },
    { property: 'og:description', content: description },
  ];
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { item } = loaderData;
  return (
    <article className="container-page max-w-3xl py-10 md:py-14">
      <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{item.title}</h1>
      <div className="mt-6 text-[1.05rem] text-ink">
        <RichText text={item.body} />
      </div>
    </article>
  );
}
