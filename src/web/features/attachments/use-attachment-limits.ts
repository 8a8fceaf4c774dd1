import { useEffect, useSyncExternalStore } from 'react';
import { formatBytes, type AttachmentLimits } from '../../../common/attachments';
import { currentLimits, refreshLimits, subscribeLimits } from './attachment-uploads';

/** The per-file limit and the user's quota, read when the first user of them mounts. */
export function useAttachmentLimits(): AttachmentLimits | null {
  useEffect(() => {
    void refreshLimits();
  }, []);
  return useSyncExternalStore(subscribeLimits, currentLimits);
}

/** The limits in a sentence, shown next to every picker before anything is sent. */
export function limitsText(limits: AttachmentLimits | null): string {
  if (!limits) return 'Checking your storage limits…';
  const left = Math.max(0, limits.quotaBytes - limits.usedBytes);
  return `Up to ${formatBytes(limits.maxFileBytes)} a file; ${formatBytes(left)} of your ${formatBytes(limits.quotaBytes)} left.`;
}
