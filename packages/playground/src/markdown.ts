/**
 * The hover and completion texts of the core are markdown of a small, known kind: paragraphs, `code`,
 * **bold**, *emphasis* and fenced blocks. This renders exactly that into DOM nodes (text nodes only, so
 * nothing in a field name or a value can become markup); a general markdown library would be most of the
 * page's weight for four constructs.
 */
export function renderMarkdown(markdown: string, doc: Document = document): HTMLElement {
  const root = doc.createElement('div');
  root.className = 'md';
  const blocks = markdown.split(/\n{2,}/);
  for (const block of blocks) {
    const fence = /^```\w*\n([\s\S]*?)\n?```$/.exec(block.trim());
    if (fence) {
      const pre = doc.createElement('pre');
      pre.textContent = fence[1];
      root.append(pre);
      continue;
    }
    const p = doc.createElement('p');
    for (const part of block.split(/(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/)) {
      if (!part) continue;
      let node: Node;
      if (part.startsWith('`')) {
        node = doc.createElement('code');
        node.textContent = part.slice(1, -1);
      } else if (part.startsWith('**')) {
        node = doc.createElement('strong');
        node.textContent = part.slice(2, -2);
      } else if (part.startsWith('*') && part.endsWith('*') && part.length > 2) {
        node = doc.createElement('em');
        node.textContent = part.slice(1, -1);
      } else node = doc.createTextNode(part);
      p.append(node);
    }
    root.append(p);
  }
  return root;
}
