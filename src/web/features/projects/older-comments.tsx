import { messages } from '../../../common';
import { BusyButton } from '../../components/busy-button';
import { ErrorAlert } from '../../components/error-alert';

/**
 * 'Show older comments' above the list. It stays focusable while loading (aria-disabled, not disabled),
 * so keyboard focus is not lost; once no older page is left it goes, and focus moves to the oldest
 * comment just loaded, where reading continues.
 */
export function OlderComments({
  loading,
  error,
  onLoad,
}: {
  loading: boolean;
  error: string | null;
  onLoad: () => void;
}) {
  return (
    <div className="comments-older">
      <BusyButton className="btn comments-older-button" busy={loading} onClick={onLoad}>
        {loading ? messages.loadingOlderComments : messages.showOlderComments}
      </BusyButton>
      <ErrorAlert message={error} />
    </div>
  );
}
