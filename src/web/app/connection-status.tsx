import { useSyncExternalStore } from 'react';
import { appMessages } from '../../common/app-messages';
import { dojo } from '../lib/dojo-client';
import './connection-status.css';

const subscribe = (onChange: () => void) => dojo.live.onStatusChanged(onChange);
const getStatus = () => dojo.live.status;

/**
 * Says so while the live connection is lost: what the screens show may then be stale, and it catches up
 * by itself once the socket is back (every subscription gets a fresh snapshot). The live region stays in
 * the page so screen readers announce the change of its content, both ways.
 */
export function ConnectionStatus() {
  const status = useSyncExternalStore(subscribe, getStatus);
  return (
    <div role="status" className="connection-status">
      {status === 'reconnecting' && <p className="connection-status-banner">{appMessages.reconnecting}</p>}
    </div>
  );
}
