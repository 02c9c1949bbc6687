import { isRichTextLink } from '@storefront/shared';
import type { ReactNode } from 'react';

/**
 * Inside a line: **bold** and [text](link). A link that is not to this shop, https, mailto:
 * or tel: shows as its text (the API refuses such links too, docs/decisions/0035).
 */
function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*\*([^*]+)\*\*|\[([^\]]+)\]\(\s*([^)\s]*)\s*\)/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    if (m[1] !== undefined) out.push(<strong key={m.index}>{m[1]}</strong>);
    else if (isRichTextLink(m[3])) {
      const external = /^https:/i.test(m[3]);
      out.push(
        <a key={m.index} href={m[3]} className="underline" {...(external ? { rel: 'noopener noreferrer' } : {})}>
          {m[2]}
        </a>,
      );
    } else out.push(m[2]);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/**
 * Renders site content written in a small safe subset of Markdown: paragraphs,
 * "## " headings, "- " lists, **bold** and [links](/path). Content is text, never HTML, so
 * nothing stored in the CMS can inject markup or scripts.
 */
export function RichText({ text }: { text: string }) {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n{2,}/);
  const out: ReactNode[] = [];
  blocks.forEach((block, i) => {
    const lines = block.split('\n').filter((l) => l.trim());
    if (!lines.length) return;
    if (lines.every((l) => l.startsWith('- '))) {
      out.push(
        <ul key={i}>
          {lines.map((l, j) => (
            <li key={j}>{inline(l.slice(2))}</li>
          ))}
        </ul>,
      );
      return;
    }
    if (lines[0].startsWith('## ')) {
      out.push(<h2 key={`${i}h`}>{inline(lines[0].slice(3))}</h2>);
      const rest = lines.slice(1);
      if (rest.length && rest.every((l) => l.startsWith('- '))) {
        out.push(
          <ul key={`${i}l`}>
            {rest.map((l, j) => (
              <li key={j}>{inline(l.slice(2))}</li>
            ))}
          </ul>,
        );
      } else if (rest.length) out.push(<p key={`${i}p`}>{inline(rest.join(' '))}</p>);
      return;
    }
    out.push(<p key={i}>{inline(lines.join(' '))}</p>);
  });
  return <div className="prose-content">{out}</div>;
}
