import { messages } from '../../common';

/**
 * 'Show more' under a list read a page at a time (`useCursorPages`). While the page is on its way it says
 * so and is `aria-disabled`, not disabled, so it keeps the focus.
 */
export function ShowMoreButton({ loading, onShowMore }: { loading: boolean; onShowMore: () => void }) {
  return (
    <button className="btn" type="button" onClick={onShowMore} aria-disabled={loading || undefined}>
      {loading ? messages.loading : 'Show more'}
    </button>
  );
}
