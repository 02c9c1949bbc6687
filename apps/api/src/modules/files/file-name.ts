// The name a file is shown and downloaded under. It is only ever a label: storage keys are
// chosen by the server (files.service.ts), so a name such as ../../etc/passwd is harmless
// on disk; it is still cleaned so that it is harmless in a Content-Disposition header, a
// URL path and a shopper's downloads folder too.

const MAX_LENGTH = 120;

/**
 * Keeps the last path segment of the client's name, drops control and reserved
 * characters, and gives it the extension of the type detected from the bytes (a PNG
 * called invoice.html downloads as invoice.png).
 */
export function sanitiseFileName(raw: string | null | undefined, ext: string): string {
  let name = String(raw ?? '').normalize('NFC');
  // Last segment of either kind of path (C:\Users\x\a.png, ../../a.png).
  name = name.split(/[/\\]/).pop() ?? '';
  name = name
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    // Reserved on Windows or meaningful in headers and URLs.
    .replace(/[<>:"|?*%;#\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    // No hidden files and no "." or ".." left over.
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  const dot = name.lastIndexOf('.');
  let stem = dot > 0 ? name.slice(0, dot) : name;
  stem = stem.replace(/[.\s]+$/, '');
  // Windows device names are refused as file names by Windows itself.
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(stem)) stem = `_${stem}`;
  if (!stem) stem = 'file';
  const suffix = `.${ext}`;
  const chars = Array.from(stem);
  if (chars.length + suffix.length > MAX_LENGTH) stem = chars.slice(0, MAX_LENGTH - suffix.length).join('');
  return `${stem}${suffix}`;
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
