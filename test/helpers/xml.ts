// A strict XML parse (saxes: well-formedness and namespaces per the XML specs) into a small tree, and
// the checks RFC 4287 makes of an Atom feed, for tests of the feeds and the badge.
import assert from 'node:assert/strict';
import { SaxesParser } from 'saxes';

export interface XmlElement {
  /** Local name. */
  name: string;
  ns: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Parses a document; throws on anything that is not well-formed, namespace-correct XML. */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const el: XmlElement = { name: tag.local, ns: tag.uri, attrs: Object.fromEntries(Object.values(tag.attributes).map((a) => [a.local, a.value])), children: [], text: '' };
    stack.at(-1)?.children.push(el);
    if (!root) root = el;
    stack.push(el);
  });
  parser.on('text', (t) => {
    const top = stack.at(-1);
    if (top) top.text += t;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  assert.ok(root, 'the document has a root element');
  return root;
}

const ATOM = 'http://www.w3.org/2005/Atom';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const only = (el: XmlElement, name: string, where: string) => {
  const found = el.children.filter((c) => c.name === name && c.ns === ATOM);
  assert.equal(found.length, 1, `${where} has exactly one atom:${name}`);
  return found[0]!;
};

/** RFC 4287's requirements of a feed and its entries (4.1.1–4.1.2, 4.2.6, 4.2.15, 3.3, 4.2.7); returns the entries. */
export function assertAtom(xml: string): XmlElement[] {
  const feed = parseXml(xml);
  assert.equal(feed.name, 'feed');
  assert.equal(feed.ns, ATOM, 'the root is atom:feed in the Atom namespace');
  for (const name of ['id', 'title', 'updated']) only(feed, name, 'the feed');
  assert.match(only(feed, 'updated', 'the feed').text, RFC3339);
  assert.ok(URL.canParse(only(feed, 'id', 'the feed').text.trim()), "the feed's id is an IRI");
  const entries = feed.children.filter((c) => c.name === 'entry' && c.ns === ATOM);
  const feedAuthor = feed.children.some((c) => c.name === 'author');
  for (const [i, e] of entries.entries()) {
    const where = `entry ${i}`;
    for (const name of ['id', 'title', 'updated']) only(e, name, where);
    assert.match(only(e, 'updated', where).text, RFC3339, `${where}: updated is an RFC 3339 date`);
    assert.ok(URL.canParse(only(e, 'id', where).text.trim()), `${where}: its id is an IRI`);
    assert.ok(feedAuthor || e.children.some((c) => c.name === 'author'), `${where} has an author, or the feed has one`);
    const alternate = e.children.filter((c) => c.name === 'link' && (c.attrs.rel ?? 'alternate') === 'alternate');
    assert.ok(alternate.length >= 1 || e.children.some((c) => c.name === 'content'), `${where} has an alternate link or content`);
    for (const l of e.children.filter((c) => c.name === 'link')) assert.ok(URL.canParse(l.attrs.href ?? ''), `${where}: a link's href is an IRI`);
  }
  const ids = entries.map((e) => only(e, 'id', 'entry').text);
  assert.equal(new Set(ids).size, ids.length, 'entry ids are unique');
  return entries;
}

/** An element's first descendant-or-self child named `name`, text trimmed. */
export function childText(el: XmlElement, name: string): string {
  return el.children.find((c) => c.name === name)?.text.trim() ?? '';
}
