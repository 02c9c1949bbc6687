/** The wordmark: a small house mark and the brand name from the site settings. */
// On the narrowest phones the header keeps only the mark, so every icon still fits.
export function Logo({ name, inverted = false, collapse = false }: { name: string; inverted?: boolean; collapse?: boolean }) {
  return (
    <>
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill={inverted ? '#f3efe8' : '#1f4d3a'} />
        <path d="M7 22V12l9-5 9 5v10" fill="none" stroke={inverted ? '#1f4d3a' : '#f3efe8'} strokeWidth="2.6" strokeLinejoin="round" />
        <rect x="11" y="16" width="10" height="6" rx="1.5" fill={inverted ? '#1f4d3a' : '#f3efe8'} />
      </svg>
      <span className={`text-lg font-bold tracking-tight ${inverted ? 'text-white' : 'text-brand-800'} ${collapse ? 'hidden sm:inline' : ''}`}>{name}</span>
    </>
  );
}
