/**
 * The JSON tree of each open `*.ruleset.json` document, for completion and hover inside its expression
 * strings. Parsing a 1 MB ruleset takes tens of milliseconds, too long for each keystroke's completion: the
 * tree is parsed once, then carried from version to version while the edits stay inside one string (typing
 * in an expression), and parsed again only after an edit to the JSON itself.
 */
import { carryJsonTree, parseJson, type JsonValue } from '@logfilter/core';
import type { TextDocument } from 'vscode-languageserver-textdocument';

interface Kept {
  version: number;
  /** The text the tree is located in. */
  text: string;
  /** Absent while the text is not JSON. */
  tree: JsonValue | undefined;
}

/** Per document object: the documents manager drops a closed document, and its tree goes with it. */
const kept = new WeakMap<TextDocument, Kept>();

/** The tree of `doc`'s current version (undefined when it is not JSON). */
export function rulesetTree(doc: TextDocument): JsonValue | undefined {
  const was = kept.get(doc);
  if (was && was.version === doc.version) return was.tree;
  const text = doc.getText();
  const tree = was?.tree && carryJsonTree(was.tree, was.text, text) ? was.tree : parseJson(text).value;
  kept.set(doc, { version: doc.version, text, tree });
  return tree;
}
