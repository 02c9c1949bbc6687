// Product pictures for the demo catalogue, drawn by the project as SVG (nothing is
// downloaded: decisions.md). Each drawing is a simple flat illustration of a piece of
// furniture in a given colour, on a soft backdrop, at 4:3.

export const SHAPES = [
  'sofa',
  'armchair',
  'bed',
  'wardrobe',
  'dining-table',
  'chair',
  'coffee-table',
  'tv-unit',
  'desk',
  'office-chair',
  'bookshelf',
  'cabinet',
  'dressing-table',
  'mattress',
  'kids-bed',
  'sideboard',
] as const;
export type Shape = (typeof SHAPES)[number];

function shade(hex: string, factor: number): string {
  const n = Number.parseInt(hex, 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.max(0, Math.min(255, Math.round(v * factor))));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

const WOOD = '#a0714f';
const WOOD_DARK = '#7a533a';

function body(shape: Shape, m: string, d: string, l: string): string {
  switch (shape) {
    case 'sofa':
      return `<rect x="170" y="220" width="460" height="130" rx="28" fill="${d}"/>
<rect x="140" y="290" width="520" height="110" rx="26" fill="${m}"/>
<rect x="120" y="260" width="80" height="160" rx="30" fill="${d}"/><rect x="600" y="260" width="80" height="160" rx="30" fill="${d}"/>
<rect x="210" y="300" width="185" height="50" rx="16" fill="${l}"/><rect x="405" y="300" width="185" height="50" rx="16" fill="${l}"/>
<rect x="160" y="420" width="16" height="40" fill="${WOOD_DARK}"/><rect x="624" y="420" width="16" height="40" fill="${WOOD_DARK}"/>`;
    case 'armchair':
      return `<rect x="270" y="200" width="260" height="150" rx="30" fill="${d}"/>
<rect x="250" y="300" width="300" height="110" rx="26" fill="${m}"/>
<rect x="230" y="260" width="70" height="160" rx="28" fill="${d}"/><rect x="500" y="260" width="70" height="160" rx="28" fill="${d}"/>
<rect x="300" y="310" width="200" height="50" rx="16" fill="${l}"/>
<rect x="260" y="420" width="14" height="45" fill="${WOOD_DARK}"/><rect x="526" y="420" width="14" height="45" fill="${WOOD_DARK}"/>`;
    case 'bed':
    case 'kids-bed': {
      const k = shape === 'kids-bed';
      return `<rect x="120" y="${k ? 220 : 180}" width="40" height="${k ? 230 : 270}" rx="8" fill="${d}"/>
<rect x="640" y="${k ? 280 : 260}" width="40" height="${k ? 170 : 190}" rx="8" fill="${d}"/>
<rect x="150" y="330" width="500" height="70" rx="12" fill="${m}"/>
<rect x="160" y="300" width="480" height="45" rx="18" fill="#f4f1ea"/>
<rect x="175" y="270" width="120" height="45" rx="18" fill="${l}"/>
<rect x="330" y="305" width="310" height="60" rx="14" fill="${l}" opacity="0.85"/>
${k ? `<circle cx="140" cy="200" r="22" fill="${l}"/><circle cx="660" cy="262" r="18" fill="${l}"/>` : ''}`;
    }
    case 'wardrobe':
      return `<rect x="250" y="110" width="300" height="350" rx="10" fill="${m}"/>
<line x1="400" y1="120" x2="400" y2="450" stroke="${d}" stroke-width="6"/>
<rect x="375" y="270" width="8" height="50" rx="4" fill="${d}"/><rect x="417" y="270" width="8" height="50" rx="4" fill="${d}"/>
<rect x="240" y="100" width="320" height="20" rx="6" fill="${d}"/><rect x="265" y="460" width="20" height="20" fill="${d}"/><rect x="515" y="460" width="20" height="20" fill="${d}"/>`;
    case 'dining-table':
      return `<rect x="170" y="270" width="460" height="28" rx="8" fill="${m}"/>
<rect x="200" y="298" width="22" height="160" fill="${d}"/><rect x="578" y="298" width="22" height="160" fill="${d}"/>
<rect x="90" y="230" width="70" height="12" rx="4" fill="${WOOD}"/><rect x="95" y="230" width="10" height="230" fill="${WOOD_DARK}"/><rect x="90" y="330" width="80" height="16" rx="4" fill="${WOOD}"/><rect x="155" y="340" width="10" height="120" fill="${WOOD_DARK}"/>
<rect x="640" y="230" width="70" height="12" rx="4" fill="${WOOD}"/><rect x="695" y="230" width="10" height="230" fill="${WOOD_DARK}"/><rect x="630" y="330" width="80" height="16" rx="4" fill="${WOOD}"/><rect x="635" y="340" width="10" height="120" fill="${WOOD_DARK}"/>`;
    case 'chair':
      return `<rect x="330" y="140" width="140" height="170" rx="16" fill="${m}"/>
<rect x="310" y="300" width="180" height="34" rx="10" fill="${d}"/>
<rect x="325" y="334" width="14" height="130" fill="${WOOD_DARK}"/><rect x="461" y="334" width="14" height="130" fill="${WOOD_DARK}"/>`;
    case 'coffee-table':
      return `<ellipse cx="400" cy="300" rx="240" ry="60" fill="${m}"/>
<ellipse cx="400" cy="290" rx="240" ry="60" fill="${l}"/>
<rect x="250" y="330" width="18" height="110" fill="${d}"/><rect x="532" y="330" width="18" height="110" fill="${d}"/><rect x="390" y="345" width="18" height="105" fill="${d}"/>`;
    case 'tv-unit':
    case 'sideboard':
      return `<rect x="130" y="290" width="540" height="130" rx="10" fill="${m}"/>
<rect x="150" y="310" width="160" height="90" rx="6" fill="${l}"/><rect x="320" y="310" width="160" height="90" rx="6" fill="${l}"/><rect x="490" y="310" width="160" height="90" rx="6" fill="${l}"/>
<rect x="220" y="350" width="20" height="6" rx="3" fill="${d}"/><rect x="390" y="350" width="20" height="6" rx="3" fill="${d}"/><rect x="560" y="350" width="20" height="6" rx="3" fill="${d}"/>
<rect x="150" y="420" width="14" height="36" fill="${d}"/><rect x="636" y="420" width="14" height="36" fill="${d}"/>
${shape === 'tv-unit' ? '<rect x="250" y="130" width="300" height="150" rx="8" fill="#2b2f36"/><rect x="390" y="280" width="20" height="12" fill="#2b2f36"/>' : ''}`;
    case 'desk':
      return `<rect x="170" y="250" width="460" height="26" rx="6" fill="${m}"/>
<rect x="190" y="276" width="18" height="180" fill="${d}"/><rect x="470" y="276" width="140" height="180" rx="6" fill="${d}"/>
<rect x="485" y="296" width="110" height="60" rx="4" fill="${l}"/><rect x="485" y="370" width="110" height="70" rx="4" fill="${l}"/>
<rect x="300" y="150" width="150" height="95" rx="6" fill="#2b2f36"/><rect x="365" y="240" width="20" height="12" fill="#2b2f36"/>`;
    case 'office-chair':
      return `<rect x="320" y="120" width="160" height="180" rx="40" fill="${m}"/>
<rect x="300" y="290" width="200" height="40" rx="16" fill="${d}"/>
<rect x="392" y="330" width="16" height="80" fill="#555"/><rect x="300" y="410" width="200" height="12" rx="6" fill="#555"/>
<circle cx="305" cy="435" r="12" fill="#333"/><circle cx="400" cy="435" r="12" fill="#333"/><circle cx="495" cy="435" r="12" fill="#333"/>`;
    case 'bookshelf':
      return `<rect x="260" y="100" width="280" height="370" rx="8" fill="${d}"/>
${[0, 1, 2, 3]
  .map(
    (i) => `<rect x="275" y="${115 + i * 88}" width="250" height="72" fill="${l}"/>
<rect x="${290 + i * 10}" y="${127 + i * 88}" width="22" height="60" fill="${m}"/><rect x="${318 + i * 10}" y="${135 + i * 88}" width="18" height="52" fill="${d}"/><rect x="${342 + i * 6}" y="${130 + i * 88}" width="24" height="57" fill="${m}" opacity="0.7"/>`,
  )
  .join('')}`;
    case 'cabinet':
    case 'dressing-table':
      return `<rect x="260" y="230" width="280" height="220" rx="10" fill="${m}"/>
<rect x="278" y="250" width="244" height="55" rx="6" fill="${l}"/><rect x="278" y="315" width="244" height="55" rx="6" fill="${l}"/><rect x="278" y="380" width="244" height="55" rx="6" fill="${l}"/>
<rect x="380" y="272" width="40" height="8" rx="4" fill="${d}"/><rect x="380" y="337" width="40" height="8" rx="4" fill="${d}"/><rect x="380" y="402" width="40" height="8" rx="4" fill="${d}"/>
${shape === 'dressing-table' ? `<ellipse cx="400" cy="150" rx="90" ry="80" fill="#dfe8ec" stroke="${d}" stroke-width="10"/>` : ''}`;
    case 'mattress':
      return `<rect x="140" y="270" width="520" height="120" rx="26" fill="#f4f1ea" stroke="${d}" stroke-width="6"/>
<rect x="140" y="300" width="520" height="12" fill="${m}"/><rect x="140" y="350" width="520" height="12" fill="${m}"/>
${[0, 1, 2, 3, 4, 5].map((i) => `<circle cx="${200 + i * 80}" cy="330" r="6" fill="${d}"/>`).join('')}`;
  }
}

/** An SVG picture of a piece of furniture; `color` is 6 hex digits. */
export function drawFurniture(shape: Shape, color: string, label = ''): string {
  const m = `#${color}`;
  const d = shade(color, 0.72);
  const l = shade(color, 1.22);
  const title = label ? `<title>${label.replace(/[<>&"]/g, '')}</title>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" width="800" height="600" role="img">${title}
<rect width="800" height="600" fill="#f3efe8"/><rect y="460" width="800" height="140" fill="#e7e0d4"/>
<ellipse cx="400" cy="470" rx="300" ry="18" fill="#000" opacity="0.08"/>
${body(shape, m, d, l)}</svg>`;
}

/** A wide banner for a category or a home slide. */
export function drawBanner(shape: Shape, color: string, heading: string): string {
  const m = `#${color}`;
  const safe = heading.replace(/[<>&"]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 500" width="1600" height="500" role="img"><title>${safe}</title>
<rect width="1600" height="500" fill="#ece5d9"/><rect y="400" width="1600" height="100" fill="#e0d7c8"/>
<circle cx="1250" cy="250" r="330" fill="${m}" opacity="0.18"/>
<g transform="translate(820 -20) scale(0.95)">${body(shape, m, shade(color, 0.72), shade(color, 1.22))}</g></svg>`;
}

const FLAGS: Record<string, string> = {
  BDT: '<rect width="30" height="20" fill="#006a4e"/><circle cx="13" cy="10" r="6" fill="#f42a41"/>',
  USD: `<rect width="30" height="20" fill="#fff"/>${[0, 2, 4, 6, 8, 10, 12].map((i) => `<rect y="${(i * 20) / 13}" width="30" height="${20 / 13}" fill="#b22234"/>`).join('')}<rect width="13" height="10.8" fill="#3c3b6e"/>`,
  EUR: `<rect width="30" height="20" fill="#039"/>${Array.from({ length: 12 }, (_, i) => `<circle cx="${15 + 6 * Math.cos((i * Math.PI) / 6)}" cy="${10 + 6 * Math.sin((i * Math.PI) / 6)}" r="0.9" fill="#fc0"/>`).join('')}`,
  GBP: '<rect width="30" height="20" fill="#012169"/><path d="M0 0L30 20M30 0L0 20" stroke="#fff" stroke-width="4"/><path d="M0 0L30 20M30 0L0 20" stroke="#c8102e" stroke-width="1.5"/><path d="M15 0V20M0 10H30" stroke="#fff" stroke-width="6"/><path d="M15 0V20M0 10H30" stroke="#c8102e" stroke-width="3.5"/>',
  INR: '<rect width="30" height="20" fill="#fff"/><rect width="30" height="6.67" fill="#f93"/><rect y="13.33" width="30" height="6.67" fill="#128807"/><circle cx="15" cy="10" r="2.6" fill="none" stroke="#008" stroke-width="0.6"/>',
  AED: '<rect width="30" height="20" fill="#fff"/><rect width="30" height="6.67" fill="#00732f"/><rect y="13.33" width="30" height="6.67" fill="#000"/><rect width="8" height="20" fill="#f00"/>',
};

// Names come from the URL: look up own keys only, or /media/badges/toString.svg finds
// Object.prototype.toString and the request crashes with a 500.
const own = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

export function drawFlag(code: string): string | null {
  const inner = own(FLAGS, code);
  if (!inner) return null;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 20" width="30" height="20">${inner}</svg>`;
}

const BADGES: Record<string, [string, string, string]> = {
  visa: ['VISA', '#1a1f71', '#fff'],
  mastercard: ['Mastercard', '#fff', '#eb001b'],
  amex: ['AMEX', '#2e77bc', '#fff'],
  bkash: ['bKash', '#e2136e', '#fff'],
  nagad: ['Nagad', '#f6921e', '#fff'],
  rocket: ['Rocket', '#8c3494', '#fff'],
  ssl: ['Secured by SSLCOMMERZ', '#fff', '#1b5e20'],
};

/** Payment-method and secure-payment badges for the footer. */
export function drawBadge(name: string): string | null {
  const b = own(BADGES, name);
  if (!b) return null;
  const [text, bg, fg] = b;
  const w = name === 'ssl' ? 220 : 80;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} 40" width="${w}" height="40" role="img"><title>${text}</title><rect x="0.5" y="0.5" width="${w - 1}" height="39" rx="6" fill="${bg}" stroke="#d6d3cd"/><text x="${w / 2}" y="26" font-family="Arial, Helvetica, sans-serif" font-size="${name === 'ssl' ? 14 : 15}" font-weight="700" text-anchor="middle" fill="${fg}">${text}</text></svg>`;
}
