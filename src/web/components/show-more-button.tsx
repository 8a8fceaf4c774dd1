import { appMessages } from '../../common/app-messages';

/**
 * 'Show more' under a list read a page at a time (`useCursorPages`), in its own row (`className`). While
 * the page is on its way it says so and is `aria-disabled`, not disabled, so it keeps the focus.
 */
export function ShowMoreButton({
  className,
  loading,
  onShowMore,
}: {
  className: string;
  loading: boolean;
  onShowMore: () => void;
}) {
  return (
    <div className={className}>
      <button className="btn" type="button" onClick={onShowMore} aria-disabled={loading || undefined}>
        {loading ? appMessages.loading : 'Show more'}
      </button>
    </div>
  );
}
