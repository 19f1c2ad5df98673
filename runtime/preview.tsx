import { useEffect, useState, useSyncExternalStore, type ComponentType, type ReactElement } from 'react';

/**
 * Editor preview: while an editor is logged in, every page shows live data from the API (drafts and
 * unpublished changes included) and this banner says so, names the editor and offers to log out.
 */

/** Whether preview is on, as React reads it; the server never renders the banner. */
export interface PreviewState {
  subscribe(listener: () => void): () => void;
  isOn(): boolean;
  /** Who is logged in, asked from the API; null when the token is no longer valid. */
  viewer(): Promise<{ name: string } | null>;
  /** Ends the session: clears the token cookie, empties the GraphQL cache, shows the build's data again. */
  logout(): Promise<void>;
}

const off = (): boolean => false;
const noSubscription = (): (() => void) => () => undefined;

/** True while preview is on; false on the server and during hydration, so the markup matches the build's. */
export function usePreview(preview: PreviewState | undefined): boolean {
  return useSyncExternalStore(preview?.subscribe ?? noSubscription, preview?.isOn ?? off, off);
}

/** The banner shown above every page while preview is on. */
export function PreviewBanner({ preview }: { preview: PreviewState }): ReactElement {
  const [busy, setBusy] = useState(false);
  // undefined: not known (yet); null: the API no longer accepts the token.
  const [viewer, setViewer] = useState<{ name: string } | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    preview.viewer().then(
      (found) => current && setViewer(found),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [preview]);
  return (
    <aside className="preview-banner" aria-label="Editor preview" data-preview="on">
      <p className="preview-banner__text">
        <strong>Preview mode</strong> is on
        {viewer === null
          ? ', but your login has expired: drafts are hidden. Log out and log in again.'
          : `${viewer ? ` for ${viewer.name}` : ''}: you see drafts and unpublished changes.`}
      </p>
      <button
        type="button"
        className="preview-banner__logout"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void preview.logout().finally(() => setBusy(false));
        }}
      >
        Logout
      </button>
    </aside>
  );
}

/**
 * The banner as the app shows it above the page: there while preview is on, re-rendered with the page
 * when an editor logs in or out.
 */
export function previewBannerFor(preview: PreviewState): ComponentType {
  return function EditorPreview(): ReactElement | null {
    return usePreview(preview) ? <PreviewBanner preview={preview} /> : null;
  };
}
