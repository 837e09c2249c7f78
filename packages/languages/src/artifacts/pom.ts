// Just enough of a pom: the text of elements by their path from <project>, with where each lies in
// the source, so the version can be read (inspection) and rewritten in place (relabel.ts).

export interface PomText {
  /** Element names from the root, e.g. ['project', 'parent', 'version']. */
  path: string[];
  /** The element enclosing the text's element (its number in document order), to group a dependency's fields. */
  parent: number;
  value: string;
  start: number;
  end: number;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Every text node (trimmed, entities decoded) with its element path. Throws Error for XML it cannot follow. */
export function pomTexts(xml: string): PomText[] {
  const out: PomText[] = [];
  const stack: { name: string; id: number }[] = [];
  let ids = 0;
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt === -1 ? xml.length : lt;
    if (stack.length && textEnd > i) {
      const raw = xml.slice(i, textEnd);
      const value = raw.trim().replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ENTITIES[e]!);
      if (value) {
        const lead = raw.length - raw.trimStart().length;
        out.push({ path: stack.map((s) => s.name), parent: stack.at(-2)?.id ?? -1, value, start: i + lead, end: i + lead + raw.trim().length });
      }
    }
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) {
      const e = xml.indexOf('-->', lt + 4);
      if (e === -1) throw new Error('an unterminated comment');
      i = e + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const e = xml.indexOf(']]>', lt);
      if (e === -1) throw new Error('an unterminated CDATA section');
      if (stack.length) out.push({ path: stack.map((s) => s.name), parent: stack.at(-2)?.id ?? -1, value: xml.slice(lt + 9, e).trim(), start: lt + 9, end: e });
      i = e + 3;
    } else if (xml.startsWith('<?', lt)) {
      const e = xml.indexOf('?>', lt);
      if (e === -1) throw new Error('an unterminated processing instruction');
      i = e + 2;
    } else if (xml.startsWith('<!', lt)) {
      throw new Error('a DOCTYPE or other declaration, which a pom has no use for');
    } else {
      const e = xml.indexOf('>', lt);
      if (e === -1) throw new Error('an unterminated tag');
      const tag = xml.slice(lt + 1, e);
      if (tag.startsWith('/')) {
        const name = tag.slice(1).trim();
        if (stack.at(-1)?.name !== name) throw new Error(`a closing </${name}> that matches no open element`);
        stack.pop();
      } else {
        const name = /^[^\s/>]+/.exec(tag)?.[0];
        if (!name) throw new Error('an empty tag');
        const id = ids++;
        if (!tag.endsWith('/')) stack.push({ name, id });
      }
      i = e + 1;
    }
  }
  if (stack.length) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  return out;
}

export interface PomCoordinates {
  groupId?: string;
  artifactId?: string;
  version?: string;
  parent: { groupId?: string; artifactId?: string; version?: string };
}

/** The project's own coordinates and its parent's. */
export function pomCoordinates(xml: string): PomCoordinates {
  const texts = pomTexts(xml);
  const at = (...p: string[]) => texts.find((t) => t.path.length === p.length && t.path.every((s, i) => s === p[i]))?.value;
  return {
    groupId: at('project', 'groupId'),
    artifactId: at('project', 'artifactId'),
    version: at('project', 'version'),
    parent: { groupId: at('project', 'parent', 'groupId'), artifactId: at('project', 'parent', 'artifactId'), version: at('project', 'parent', 'version') },
  };
}
