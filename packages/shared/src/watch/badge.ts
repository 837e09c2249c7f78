// A watch's badge: "google-cloud-spanner 6.116.0 | pass" as a flat SVG a README can embed.
import { escapeXml } from './atom';
import type { ChipState } from './chips';

const COLORS: Record<ChipState | 'none', string> = {
  pass: '#2e7d32',
  persisting: '#ef6c00',
  fail: '#c62828',
  inconclusive: '#9e7700',
  queued: '#607d8b',
  running: '#1565c0',
  'could not install': '#6d4c41',
  canceled: '#757575',
  none: '#9e9e9e',
};

/** Verdana 11px is about this wide per character; badges need no better (shields.io measures, we estimate). */
const width = (text: string) => Math.round(text.length * 6.8 + 12);

export function badgeSvg(label: string, state: ChipState | 'none', message: string = state === 'none' ? 'no release yet' : state): string {
  const lw = width(label);
  const mw = width(message);
  const w = lw + mw;
  const text = (x: number, s: string) => `<text x="${x}" y="15" fill="#010101" fill-opacity=".3">${escapeXml(s)}</text><text x="${x}" y="14">${escapeXml(s)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${escapeXml(`${label}: ${message}`)}">`,
    `<title>${escapeXml(`${label}: ${message}`)}</title>`,
    `<rect width="${lw}" height="20" fill="#555"/>`,
    `<rect x="${lw}" width="${mw}" height="20" fill="${COLORS[state]}"/>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">`,
    text(lw / 2, label),
    text(lw + mw / 2, message),
    '</g>',
    '</svg>',
    '',
  ].join('');
}
