/**
 * The editor's keys on the whole page: Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes, and the
 * browser's copy and paste carry steps as workflow JSON. Never inside a text field (its own undo
 * and clipboard win), nor while focus is outside the editor (a dialog).
 */
import { useEffect, type RefObject } from "react";

const isTextField = (el: EventTarget | null) => el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

export interface EditorKeyActions {
  undo: () => void;
  redo: () => void;
  /** The selected steps as text, or null when none is selected (the browser copies as usual). */
  copy: () => string | null;
  paste: (text: string) => void;
}

export function useEditorKeys(root: RefObject<HTMLElement | null>, { undo, redo, copy, paste }: EditorKeyActions): void {
  useEffect(() => {
    // Focus on the page itself (body, or main after a click on the canvas's background) counts as in the editor.
    const inEditor = () => {
      const active = document.activeElement;
      return !active || active === document.body || active.tagName === "MAIN" || Boolean(root.current?.contains(active));
    };
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || isTextField(e.target) || !inEditor()) return;
      const key = e.key.toLowerCase();
      if (key === "z" && !e.shiftKey) (e.preventDefault(), undo());
      else if ((key === "z" && e.shiftKey) || key === "y") (e.preventDefault(), redo());
    };
    const onCopy = (e: ClipboardEvent) => {
      if (isTextField(e.target) || !inEditor() || window.getSelection()?.toString()) return;
      const text = copy();
      if (text === null) return;
      e.clipboardData?.setData("text/plain", text);
      e.preventDefault();
    };
    const onPaste = (e: ClipboardEvent) => {
      if (isTextField(e.target) || !inEditor()) return;
      const text = e.clipboardData?.getData("text/plain");
      if (!text) return;
      e.preventDefault();
      paste(text);
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("copy", onCopy);
    document.addEventListener("paste", onPaste);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("copy", onCopy);
      document.removeEventListener("paste", onPaste);
    };
  }, [root, undo, redo, copy, paste]);
}
