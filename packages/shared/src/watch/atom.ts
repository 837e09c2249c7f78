// The Atom feed (RFC 4287) of watch verdicts: text only, every value escaped for XML.

export interface AtomEntry {
  /** A permanent IRI: the gate's URL. */
  id: string;
  title: string;
  updated: Date;
  link: string;
  category: string;
  summary: string;
}

export interface AtomFeed {
  /** The feed's own URL, also its id. */
  self: string;
  /** The page it mirrors. */
  alternate: string;
  title: string;
  /** When there are no entries: the feed's last change (the watch's creation). */
  updated: Date;
  entries: AtomEntry[];
}

/** XML 1.0 text: the five special characters escaped, characters XML cannot carry dropped. */
export function escapeXml(s: string): string {
  return [...s]
    .filter((c) => {
      const p = c.codePointAt(0)!;
      return p === 0x9 || p === 0xa || p === 0xd || (p >= 0x20 && p <= 0xd7ff) || (p >= 0xe000 && p <= 0xfffd) || p >= 0x10000;
    })
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function atomFeed(feed: AtomFeed): string {
  const updated = new Date(Math.max(feed.updated.getTime(), ...feed.entries.map((e) => e.updated.getTime())));
  const entry = (e: AtomEntry) =>
    [
      '  <entry>',
      `    <id>${escapeXml(e.id)}</id>`,
      `    <title type="text">${escapeXml(e.title)}</title>`,
      `    <updated>${e.updated.toISOString()}</updated>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(e.link)}"/>`,
      `    <category term="${escapeXml(e.category)}"/>`,
      `    <summary type="text">${escapeXml(e.summary)}</summary>`,
      '  </entry>',
    ].join('\n');
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(feed.self)}</id>`,
    `  <title type="text">${escapeXml(feed.title)}</title>`,
    `  <updated>${updated.toISOString()}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(feed.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(feed.alternate)}"/>`,
    '  <author><name>spanner-client-bench</name></author>',
    '  <generator>spanner-client-bench</generator>',
    ...feed.entries.map(entry),
    '</feed>',
    '',
  ].join('\n');
}
