import type { ReactNode } from 'react';

/**
 * Renders site content written in a small safe subset of Markdown: paragraphs,
 * "## " headings and "- " lists. Content is text, never HTML, so nothing stored in
 * the CMS can inject markup or scripts.
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
            <li key={j}>{l.slice(2)}</li>
          ))}
        </ul>,
      );
      return;
    }
    if (lines[0].startsWith('## ')) {
      out.push(<h2 key={`${i}h`}>{lines[0].slice(3)}</h2>);
      const rest = lines.slice(1);
      if (rest.length && rest.every((l) => l.startsWith('- '))) {
        out.push(
          <ul key={`${i}l`}>
            {rest.map((l, j) => (
              <li key={j}>{l.slice(2)}</li>
            ))}
          </ul>,
        );
      } else if (rest.length) out.push(<p key={`${i}p`}>{rest.join(' ')}</p>);
      return;
    }
    out.push(<p key={i}>{lines.join(' ')}</p>);
  });
  return <div className="prose-content">{out}</div>;
}
