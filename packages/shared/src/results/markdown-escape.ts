// User text (names, labels, error messages, runner facts) in Markdown meant for GitHub: literal text only.

// The punctuation that makes inline syntax (emphasis, code, links, images, HTML, table cells,
// strike-through, entities, GitHub's math). Line-start syntax (#, -, 1.) cannot occur: this text
// is always inline, after our own words.
const INLINE_PUNCTUATION = /[\\`*_{}[\]<>|!~&$]/g;

/**
 * The text as GitHub shows it, one line, no link, image, HTML, table cell break or mention: newlines
 * become spaces, inline Markdown punctuation gets a backslash, `://` and `www.` are broken (GFM
 * links them in plain text), and a zero-width space follows each `@` (a backslash would not stop
 * GitHub's mentions or e-mail links, which it finds in the rendered text).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?|\n/g, ' ')
    .replace(INLINE_PUNCTUATION, '\\$&')
    .replace(/:\/\//g, '\\://')
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}\\.`)
    .replace(/@/g, '@\u200b');
}
