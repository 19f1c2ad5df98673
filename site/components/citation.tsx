import { useState, type ReactElement } from 'react';
import { formatCitation, type Citable } from '../format/citation.ts';

type CopyState = 'idle' | 'copied' | 'failed';

const MESSAGES: Record<CopyState, string> = {
  idle: '',
  copied: 'Citation copied to the clipboard.',
  failed: 'Copying is not available here: select the citation and copy it.',
};

/**
 * A ready-to-copy reference. The text itself is selectable with one click (`user-select: all`), so it
 * works without JavaScript; the button copies it to the clipboard where the browser allows that.
 */
export function Citation({ item }: { item: Citable }): ReactElement {
  const text = formatCitation(item);
  const [state, setState] = useState<CopyState>('idle');
  const copy = (): void => {
    const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clipboard) return setState('failed');
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <section className="citation" aria-labelledby="citation-title">
      <h2 id="citation-title" className="citation__title">
        Cite this publication
      </h2>
      <p className="citation__text" id="citation-text">
        {text}
      </p>
      <p className="citation__actions">
        <button type="button" className="button button--quiet" onClick={copy} aria-describedby="citation-text">
          Copy citation
        </button>
        <span className="citation__status" role="status">
          {MESSAGES[state]}
        </span>
      </p>
    </section>
  );
}
