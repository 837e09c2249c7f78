'use client';

/** Fetches the Markdown at `url` and puts it on the clipboard; `onNote` tells the user what happened. */
export function CopyMarkdown({ url, pasteInto, onNote }: { url: string; pasteInto: string; onNote: (note: string) => void }) {
  async function copy() {
    const text = await (await fetch(url)).text();
    try {
      await navigator.clipboard.writeText(text);
      onNote(`Markdown copied: paste it into ${pasteInto}.`);
    } catch {
      onNote('The browser refused the clipboard: copy the text under "Markdown" below.');
    }
  }
  return (
    <button type="button" onClick={copy}>
      Copy as Markdown
    </button>
  );
}
